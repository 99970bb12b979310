// Browser tests of what a visitor sees: the landing page, the full-screen loading state, the 404 page and
// the protected-route rule, all on the real product server under its strict CSP.
import type { HTTPRequest } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { intercepting, visibleText, waitForPath, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ signedIn: false });

describe('visitor screens', () => {
  it('serves the app under the strict CSP', async () => {
    const res = await t.page.goto(`${t.server.url}/`, { waitUntil: 'load' });
    const csp = res?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  });

  it('shows every text of the landing page, and both calls to action lead to /auth', async () => {
    await t.page.goto(`${t.server.url}/`, { waitUntil: 'load' });
    await t.page.waitForSelector('h1');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('CSP Generator');
    const text = await visibleText(t.page);
    for (const expected of [
      'Generate robust Content Security Policies for your websites with advanced web scraping and real-time analysis',
      'Security First',
      'Fast Analysis',
      'Multi-Domain',
      'Professional CSP Generation',
      'Get Started',
      'Start Free Analysis',
    ]) {
      expect(text).toContain(expected);
    }
    const ctaTargets = await t.page.$$eval('a', (links) =>
      links
        .filter((a) => ['Get Started', 'Start Free Analysis'].includes(a.textContent?.trim() ?? ''))
        .map((a) => new URL(a.href).pathname),
    );
    expect(ctaTargets).toEqual(['/auth', '/auth']);

    const getStarted = await t.page.waitForSelector('xpath/.//a[normalize-space()="Get Started"]');
    await getStarted!.click();
    await waitForPath(t.page, '/auth');
    await t.page.waitForSelector('form[aria-label="Sign in"]');
    const auth = await visibleText(t.page);
    expect(auth).toContain('Get Started');
    expect(auth).toContain('Sign in to your account');
    expect(auth).toContain('Sign In');
  });

  it("shows a full-screen 'Loading...' while the current user is being looked up", async () => {
    // The lookup is asked only when the browser holds the signed-in marker (without it a visitor is known
    // at once): a marker whose session is gone, answered 401.
    await t.page.setCookie({ name: 'csp_signed_in', value: '1', url: t.server.url });
    t.guard.allowFailedRequest('/api/user', 401);
    // The dashboard's lists are asked for beside the user (the marker says a session is likely): each is
    // answered 401 too, and forgotten with the user.
    for (const path of [
      '/api/domains',
      '/api/csp-analyses',
      '/api/achievements',
      '/api/achievements/stats',
      '/api/achievements/progress',
    ])
      t.guard.allowFailedRequest(path, 401);
    // Every API request is held (the lists are asked for beside the user): until they are answered, nothing
    // is known.
    const held: HTTPRequest[] = [];
    let markHeld: () => void = () => {};
    const heldUserLookup = new Promise<void>((resolve) => {
      markHeld = resolve;
    });
    let releasing = false;
    const onRequest = (request: HTTPRequest) => {
      const path = new URL(request.url()).pathname;
      if (!releasing && path.startsWith('/api/')) {
        held.push(request);
        if (path === '/api/user') markHeld();
      } else {
        void request.continue();
      }
    };
    const release = async () => {
      releasing = true;
      await Promise.all(held.map((request) => request.continue()));
    };
    await intercepting(t.page, onRequest, async () => {
      await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
      await heldUserLookup;
      // The lookup is still pending: the whole screen says Loading... and nothing has been decided yet.
      await t.page.waitForFunction(
        () => document.querySelector('[role="status"]')?.textContent === 'Loading...',
      );
      expect(await t.page.evaluate(() => location.pathname)).toBe('/dashboard');
      expect(await t.page.$('[data-testid="toast"]')).toBeNull();
      await release();
      await waitForToast(t.page, 'Unauthorized');
    });
    await waitForPath(t.page, '/auth');
    // The answer cleared the marker: the next screen knows the visitor without asking.
    expect((await t.page.cookies()).map((c) => c.name)).not.toContain('csp_signed_in');
  });

  it('asks nobody who is signed in when the browser holds no signed-in marker', async () => {
    const lookups: string[] = [];
    const onRequest = (request: HTTPRequest) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) lookups.push(request.url());
    };
    t.page.on('request', onRequest);
    try {
      await t.page.goto(`${t.server.url}/`, { waitUntil: 'networkidle0' });
      await t.page.waitForSelector('h1');
      await t.page.goto(`${t.server.url}/auth`, { waitUntil: 'networkidle0' });
      await t.page.waitForSelector('form[aria-label="Sign in"]');
    } finally {
      t.page.off('request', onRequest);
    }
    expect(lookups.filter((url) => new URL(url).pathname === '/api/user')).toEqual([]);
  });

  it("sends an anonymous visitor of /dashboard to /auth after the 'Unauthorized' toast", async () => {
    // Timed inside the page (toast appearance vs. the router's navigation), so a slow test runner that
    // notices the toast late cannot make the check pass or fail.
    const timing = await t.page.evaluateOnNewDocument(() => {
      const w = window as unknown as { __toastAt?: number; __authAt?: number };
      new MutationObserver(() => {
        if (w.__toastAt === undefined && document.querySelector('[data-testid="toast"]')) {
          w.__toastAt = performance.now();
        }
      }).observe(document, { childList: true, subtree: true });
      for (const method of ['pushState', 'replaceState'] as const) {
        const original = history[method].bind(history);
        history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
          if (w.__authAt === undefined && url && String(url).startsWith('/auth'))
            w.__authAt = performance.now();
          original(data, unused, url);
        };
      }
    });
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    const toast = await waitForToast(t.page, 'Unauthorized');
    expect(toast.variant).toBe('destructive');
    expect(toast.text).toContain('You need to log in to access this page');
    await waitForPath(t.page, '/auth');
    const { toastAt, authAt } = await t.page.evaluate(() => {
      const w = window as unknown as { __toastAt?: number; __authAt?: number };
      return { toastAt: w.__toastAt ?? -1, authAt: w.__authAt ?? -1 };
    });
    await t.page.removeScriptToEvaluateOnNewDocument(timing.identifier);
    expect(toastAt).toBeGreaterThan(0);
    // Spec: the redirect waits 500 ms after the toast.
    expect(authAt - toastAt).toBeGreaterThanOrEqual(450);
    // The toast stays on screen across the navigation.
    await waitForToast(t.page, 'Unauthorized');
  });

  it.each(['/domains/new', '/settings', '/admin', '/csp-generator', '/domains/x1', '/analysis/x1'])(
    'protects %s',
    async (path) => {
      await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'load' });
      await waitForToast(t.page, 'Unauthorized');
      await waitForPath(t.page, '/auth');
    },
  );

  it("shows '404 Page Not Found' with a plain explanation and a way home for an unknown path", async () => {
    await t.page.goto(`${t.server.url}/no/such/page`, { waitUntil: 'load' });
    await t.page.waitForSelector('h1');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('404 Page Not Found');
    const text = await visibleText(t.page);
    expect(text).not.toContain('router');
    expect(text).toContain('There is no page at /no/such/page');
    expect(text).toContain('Back to home');
  });

  it('lays the landing page out without horizontal scrolling on a phone', async () => {
    await t.page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    try {
      for (const path of ['/', '/auth', '/auth?mode=register', '/nope']) {
        await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'load' });
        await t.page.waitForSelector('h1, form');
        const overflow = await t.page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    } finally {
      await t.page.setViewport({ width: 1280, height: 800 });
    }
  });
});
