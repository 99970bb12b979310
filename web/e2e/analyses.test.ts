// Browser tests of the analysis screens: the domain screen (progress box, stats, history, quick and advanced
// starts, delete), the analysis screen in every state, and the standalone generator. Analyses in a given
// state are written straight into the store; the queue's crawl handler does nothing, so a started analysis
// stays pending.
import { getAnalysis } from '@csp/functions/src/store/analyses';
import { HttpClient } from '@csp/functions/src/testing/http-client';
import { exportPolicy, serializePolicy } from '@csp/shared/csp/serialize';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { type Domain, INACTIVE_DOMAIN } from '@csp/shared/schemas/domain';
import { describe, expect, it } from 'vitest';
import {
  clickSelector,
  clickText,
  dismissAchievementOverlay,
  fill,
  visibleText,
  waitForDownload,
  waitForPath,
  waitForToast,
} from './harness';
import { ALLOWLIST_RULES, PAGE_ERRORS, STRICT_RULES, seedCompleted, seedFailed, seedRunning } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ downloads: true, clipboard: true });

async function createDomain(name: string, url: string): Promise<Domain> {
  const res = await t.client.post('/api/domains', { name, url, isActive: true });
  expect(res.status).toBe(201);
  return (await res.json()) as Domain;
}

const downloaded = (filename: string) => waitForDownload(t.downloads, filename);

const text = () => visibleText(t.page);

describe('domain screen', () => {
  it('shows the domain, the running analysis, quick stats, the latest analysis and the history', async () => {
    const domain = await createDomain('Marketing site', 'https://www.example.com');
    const target = { userId: t.user.id, domainId: domain.id, url: domain.url };
    const completed = await seedCompleted(t.server.deps.db, target);
    await seedFailed(t.server.deps.db, target, [
      'The crawl stopped after 3 failed attempts and was abandoned.',
    ]);
    const running = await seedRunning(t.server.deps.db, target, {
      progress: 40,
      currentPage: 'https://www.example.com/pricing',
      totalPages: 17,
    });

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="active-analysis"]');
    const all = await text();
    for (const expected of [
      'Back to Dashboard',
      'Marketing site',
      'https://www.example.com',
      'Active',
      'Total scans',
      'Last scanned',
      'Delete Domain',
      'Quick Start Analysis',
      'Advanced Settings',
      'Quick Stats',
      'Latest Analysis',
      'Analysis History',
    ]) {
      expect(all).toContain(expected);
    }
    const box = await t.page.$eval('[data-testid="active-analysis"]', (el) => (el as HTMLElement).innerText);
    expect(box).toContain('https://www.example.com/pricing');
    expect(box).toContain('40%');
    expect(box).toContain('17');
    expect(box).toContain('Actively crawling and analyzing resources...');
    expect(
      await t.page.$eval('[data-testid="active-analysis"] [role="progressbar"]', (p) => p.ariaValueNow),
    ).toBe('40');
    expect(await t.page.$eval('[data-testid="domain-overview"]', (el) => el.textContent)).toContain('3');

    const stats = await t.page.$eval('[data-testid="quick-stats"]', (el) => (el as HTMLElement).innerText);
    // One completed of the two finished: the running one is not counted as a failure.
    expect(stats.replace(/\s+/g, ' ')).toMatch(/Total analyses 3 Success rate 50% Status Active/);
    // The latest is the running one: no results yet.
    const latest = await t.page.$eval('[data-testid="latest-analysis"]', (el) => el.textContent);
    expect(latest).toContain('Running');
    expect(latest).not.toContain('View Results');

    const rows = await t.page.$$eval('[data-testid="history-row"]', (trs) =>
      trs.map((tr) => (tr as HTMLElement).dataset.status),
    );
    expect(rows).toEqual(['running', 'failed', 'completed']);
    const views = await t.page.$$eval('[data-testid="history-row"] a', (links) =>
      links
        .filter((a) => a.textContent === 'View')
        .map((a) => new URL((a as HTMLAnchorElement).href).pathname),
    );
    expect(views).toEqual([`/analysis/${completed}`]);
    const live = await t.page.$eval('[data-testid="active-analysis"] a', (a) => new URL(a.href).pathname);
    expect(live).toBe(`/analysis/${running}`);
  });

  it("'Quick Start Analysis' starts an analysis: the toast, then the progress box and the history row", async () => {
    const domain = await createDomain('Customer portal', 'https://app.example.com');
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('xpath/.//p[normalize-space()="No analyses yet"]');
    let all = await text();
    expect(all).toContain('Start Your First Analysis');
    expect(all).toContain('N/A');

    // A double click starts one analysis, not two.
    const quickStart = await t.page.waitForSelector(
      'xpath/.//button[normalize-space()="Quick Start Analysis"]',
    );
    await quickStart!.click({ count: 2 });
    const toast = await waitForToast(t.page, 'Analysis Started');
    expect(toast.variant).toBe('default');
    expect(toast.text).toContain('Your CSP analysis has been started and will run in the background.');
    await t.page.waitForSelector('[data-testid="active-analysis"]');
    const box = await t.page.$eval('[data-testid="active-analysis"]', (el) => (el as HTMLElement).innerText);
    // About to start, or queued behind this user's analyses of earlier tests (the queue crawls nothing).
    expect(box).toMatch(
      /Initializing analysis engine\.\.\.|Queued — position \d+: \d+ of yours starts? first/,
    );
    expect(box).toContain('0%');
    await t.page.waitForSelector('[data-testid="history-row"][data-status="pending"]');
    all = await text();
    expect(all).not.toContain('Start Your First Analysis');

    const list = (await (await t.client.get(`/api/domains/${domain.id}/analyses`)).json()) as Array<{
      id: string;
      url: string;
      status: string;
    }>;
    expect(list).toHaveLength(1);
    expect(list[0]!.url).toBe('https://app.example.com');
    const record = await getAnalysis(t.server.deps.db, list[0]!.id);
    expect(record?.crawlRequest).toMatchObject({
      maxPages: CRAWL_LIMITS.maxPages.default,
      crawlDelay: CRAWL_LIMITS.crawlDelay.default,
      urlList: [],
      headerBudget: CRAWL_LIMITS.headerBudget.default,
      policyTarget: 'header',
    });
    // The overview counts the scan.
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="domain-overview"] dd')?.textContent === '1',
    );
  });

  it("'Advanced Settings' validates with the crawl request schema and sends the settings", async () => {
    const { maxPages, crawlDelay, headerBudget } = CRAWL_LIMITS;
    const domain = await createDomain('Docs', 'https://docs.example.com');
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await clickText(t.page, 'button', 'Advanced Settings');
    await t.page.waitForSelector('form[aria-label="Advanced settings"]');
    // The bounds and the default come from CRAWL_LIMITS.
    expect(await t.page.$eval('input[name="headerBudget"]', (i) => [i.value, i.min, i.max])).toEqual([
      String(headerBudget.default),
      String(headerBudget.min),
      String(headerBudget.max),
    ]);
    expect(await t.page.$eval('input[name="maxPages"]', (i) => [i.min, i.max])).toEqual([
      String(maxPages.min),
      String(maxPages.max),
    ]);
    await fill(t.page, 'input[name="maxPages"]', '0');
    await fill(t.page, 'input[name="crawlDelay"]', String(crawlDelay.max + 1));
    await fill(t.page, 'input[name="headerBudget"]', String(headerBudget.max + 1));
    await t.page.type('textarea[name="urlList"]', 'not a url');
    await clickText(t.page, 'button', 'Start Analysis');
    let all = await text();
    expect(all).toContain(`maxPages must be between ${maxPages.min} and ${maxPages.max}`);
    expect(all).toContain(`crawlDelay must be between ${crawlDelay.min} and ${crawlDelay.max} ms`);
    expect(all).toContain(`headerBudget must be between ${headerBudget.min} and ${headerBudget.max} bytes`);
    expect(all).toContain('Every URL in the list must be a valid http(s) URL');
    expect(await t.page.$eval('input[name="headerBudget"]', (i) => i.getAttribute('aria-invalid'))).toBe(
      'true',
    );

    await fill(t.page, 'input[name="headerBudget"]', '8192');
    await clickText(t.page, 'span', 'CloudFront response-headers policy');
    expect(await text()).toContain('1,783-character cap');
    await fill(t.page, 'input[name="maxPages"]', '5');
    await fill(t.page, 'input[name="crawlDelay"]', '0');
    await t.page.type('input[name="userAgent"]', 'AcmeBot/2.0');
    await t.page.$eval('textarea[name="urlList"]', (el) => {
      (el as HTMLTextAreaElement).select();
    });
    await t.page.keyboard.press('Backspace');
    await t.page.type(
      'textarea[name="urlList"]',
      '  https://docs.example.com/a  \n\n https://docs.example.com/b\n',
    );
    await t.page.type('textarea[name="sitemapContent"]', 'https://docs.example.com/sitemap-1.xml\n\n');
    await clickText(t.page, 'button', 'Start Analysis');
    await waitForToast(t.page, 'Analysis Started');
    await t.page.waitForSelector('[data-testid="active-analysis"]');
    all = await text();
    expect(all).not.toContain('maxPages must be');

    const [analysis] = (await (await t.client.get(`/api/domains/${domain.id}/analyses`)).json()) as Array<{
      id: string;
    }>;
    const record = await getAnalysis(t.server.deps.db, analysis!.id);
    expect(record?.url).toBe('https://docs.example.com');
    expect(record?.crawlRequest).toEqual({
      url: 'https://docs.example.com',
      urlList: ['https://docs.example.com/a', 'https://docs.example.com/b'],
      sitemapContent: 'https://docs.example.com/sitemap-1.xml',
      maxPages: 5,
      crawlDelay: 0,
      userAgent: 'AcmeBot/2.0',
      headerBudget: 8192,
      policyTarget: 'cloudfront',
    });
  });

  it("deletes the domain after the confirmation, says 'Domain deleted successfully' and returns to /dashboard", async () => {
    const domain = await createDomain('Legacy blog', 'https://blog.example.org');
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await clickText(t.page, 'button', 'Delete Domain');
    await t.page.waitForSelector('dialog[open]');
    expect(await t.page.$eval('dialog[open]', (d) => d.textContent)).toContain('Legacy blog');
    await clickText(t.page, 'dialog//button', 'Delete Domain');
    const toast = await waitForToast(t.page, 'Domain deleted successfully');
    expect(toast.variant).toBe('default');
    await waitForPath(t.page, '/dashboard');
    await t.page.waitForSelector('[data-testid="stat-card"]');
    expect(await text()).not.toContain('Legacy blog');
    expect((await t.client.get(`/api/domains/${domain.id}`)).status).toBe(404);
  });

  it('says why an inactive domain cannot be scanned, and scans it once activated', async () => {
    const res = await t.client.post('/api/domains', {
      name: 'Paused',
      url: 'https://paused.example.com',
      isActive: false,
    });
    const domain = (await res.json()) as Domain;
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="inactive-reason"]');
    const quickStart = 'xpath/.//button[normalize-space()="Quick Start Analysis"]';
    expect(await t.page.$eval(quickStart, (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    expect(await text()).toContain(INACTIVE_DOMAIN);
    await t.page.click('[data-testid="domain-active-toggle"]');
    await waitForToast(t.page, 'Domain activated');
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="inactive-reason"]'));
    await clickText(t.page, 'button', 'Quick Start Analysis');
    await waitForToast(t.page, 'Analysis Started');
  });

  it("a write refused for a lost session says 'You are logged out' once and goes to /auth", async () => {
    const domain = await createDomain('Session', 'https://session.example.com');
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('xpath/.//button[normalize-space()="Quick Start Analysis"]');
    // The session ends elsewhere (another tab logged out): the next write is answered 401.
    const other = new HttpClient(t.server.url);
    for (const [k, v] of t.client.cookies) other.cookies.set(k, v);
    await other.post('/api/logout');
    t.guard.allowFailedRequest('/api/csp-analyses', 401);
    // Until the redirect, the screen's own refreshing reads may be answered 401 too (read as empty).
    for (const read of [
      '',
      '/analyses',
      '/uri-reports',
      '/uri-reports/clear',
      '/report-suggestions',
      '/csp-configurations',
      '/scripts',
      '/changes',
      '/schedule',
      '/alerts',
      '/alert-deliveries',
      '/alert-settings',
    ]) {
      t.guard.allowFailedRequest(`/api/domains/${domain.id}${read}`, 401);
    }
    // So may the frame's read of the unlocks, made once the first view is painted (the achievement overlay):
    // on a busy machine it leaves after the session was ended elsewhere.
    t.guard.allowFailedRequest('/api/achievements', 401);
    await clickText(t.page, 'button', 'Quick Start Analysis');
    const toast = await waitForToast(t.page, 'You are logged out. Logging in again...');
    expect(toast.text).toContain('Unauthorized');
    expect(toast.variant).toBe('destructive');
    await waitForPath(t.page, '/auth');
    await new Promise((r) => setTimeout(r, 600));
    expect(
      await t.page.$$eval('[data-testid="toast"]', (els) => els.map((e) => e.textContent)),
    ).not.toContainEqual(expect.stringContaining('You need to log in'));
    // Sign in again for the tests that follow.
    await t.page.deleteCookie(...(await t.page.cookies()));
    await t.signInAgain();
  });

  it('shows a not-found state for an unknown domain', async () => {
    t.guard.allowFailedRequest('/api/domains/no-such-domain', 404);
    // Asked for beside the domain while the screen loads (one round trip fewer for every domain that exists).
    t.guard.allowFailedRequest('/api/domains/no-such-domain/analyses', 404);
    await t.page.goto(`${t.server.url}/domains/no-such-domain`, { waitUntil: 'load' });
    await t.page.waitForSelector('h1');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('Domain Not Found');
  });
});

describe('analysis screen', () => {
  it('shows a completed analysis: tiles, the policy, directive cards, verification, errors and downloads', async () => {
    const domain = await createDomain('Shop', 'https://shop.example.com');
    const id = await seedCompleted(t.server.deps.db, {
      userId: t.user.id,
      domainId: domain.id,
      url: domain.url,
    });

    await t.page.goto(`${t.server.url}/analysis/${id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="policy-card"]');
    const all = await text();
    for (const expected of [
      'Back to Domain',
      'Progress',
      '100%',
      'Resources',
      '184',
      'Domains',
      'Issues',
      'Completed',
      'Started',
      'Verified on 12 pages: 0 violations',
      'Security Recommendations',
      'Add report-uri',
      'Test in report-only mode',
      'Analysis Errors',
      ...PAGE_ERRORS,
    ]) {
      expect(all).toContain(expected);
    }
    expect(all).not.toContain('Remove unsafe-inline');
    // Every tile says what it counts, in a tooltip that opens after 700 ms.
    expect(
      await t.page.$$eval('[data-testid="stat-tile"]', (els) =>
        els.map((e) => e.querySelector('[data-testid="info-tip"]') !== null),
      ),
    ).toEqual([true, true, true, true]);
    await t.page.hover('[aria-label="About Issues"]');
    await new Promise((r) => setTimeout(r, 300));
    expect(await t.page.$('[role="tooltip"]')).toBeNull();
    const tip = await t.page.waitForSelector('[role="tooltip"]', { timeout: 2000 });
    expect(await tip!.evaluate((el) => el.textContent)).toContain(
      'same list that sets the badge and the grade',
    );
    await t.page.mouse.move(0, 0);
    expect(
      await t.page.$eval('[data-testid="verification"]', (el) => (el as HTMLElement).dataset.state),
    ).toBe('clean');
    expect(await t.page.$eval('[data-testid="policy-badge"]', (el) => el.textContent)).toBe('Valid');
    // The header value, as serializePolicy writes it.
    const header = await t.page.$eval('[data-testid="policy-header"]', (el) => (el as HTMLElement).innerText);
    expect(header.replace(/;\n/g, '; ').trim()).toBe(serializePolicy(ALLOWLIST_RULES));

    // One card per directive; script-src open, every other one closed.
    const cards = await t.page.$$eval('[data-testid="directive-card"]', (els) =>
      els.map((el) => [(el as HTMLElement).dataset.directive, (el as HTMLElement).dataset.state]),
    );
    expect(cards.map(([d]) => d).sort()).toEqual(Object.keys(ALLOWLIST_RULES).sort());
    expect(cards.filter(([, s]) => s === 'open')).toEqual([['script-src', 'open']]);
    await t.page.click('[data-directive="img-src"] button');
    await t.page.waitForSelector('[data-directive="img-src"][data-state="open"]');
    expect(await t.page.$eval('[data-directive="img-src"]', (el) => el.textContent)).toContain(
      'https://images.example-cdn.net',
    );

    // Strict mode: the nonce policy. Its 'unsafe-inline' is a fallback browsers ignore beside the nonce:
    // not an issue (badge Valid, grade in the A band, Issues agree), though the recommendation still says
    // what it is there for.
    await clickText(t.page, 'label', 'Strict');
    await t.page.waitForFunction(
      (expected) => document.querySelector('[data-testid="policy-header"]')?.textContent?.includes(expected),
      {},
      "'strict-dynamic'",
    );
    expect(await t.page.$eval('[data-testid="policy-badge"]', (el) => el.textContent)).toBe('Valid');
    expect(
      await t.page.$eval('[data-testid="policy-grade"]', (el) => (el as HTMLElement).dataset.grade),
    ).toMatch(/^A/);
    const strict = await t.page.$eval('[data-testid="policy-header"]', (el) => (el as HTMLElement).innerText);
    expect(strict.replace(/;\n/g, '; ').trim()).toBe(serializePolicy(STRICT_RULES));
    expect(await text()).toContain('Remove unsafe-inline');
    expect(await text()).toContain('only a fallback');
    await clickText(t.page, 'label', 'Allowlist');

    // Copy to the clipboard.
    await clickText(t.page, 'button', 'Copy');
    const copied = await waitForToast(t.page, 'Copied to Clipboard');
    expect(copied.text).toContain('CSP policy has been copied to your clipboard.');
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).toBe(
      serializePolicy(ALLOWLIST_RULES),
    );

    // csp-policy.txt and a server configuration with its warnings.
    await clickSelector(t.page, '[data-testid="download-policy"]');
    expect(await downloaded('csp-policy.txt')).toBe(
      `Content-Security-Policy: ${serializePolicy(ALLOWLIST_RULES)}\n`,
    );
    await clickText(t.page, 'button', 'Nginx');
    await clickSelector(t.page, '[data-testid="download-nginx"]');
    expect(await downloaded('nginx.conf')).toBe(exportPolicy('nginx', ALLOWLIST_RULES).content);

    await clickText(t.page, 'a', 'Back to Domain');
    await waitForPath(t.page, `/domains/${domain.id}`);
  });

  it('shows the violations of a self-verification in amber, with the samples', async () => {
    const id = await seedCompleted(
      t.server.deps.db,
      { userId: t.user.id, domainId: null, url: 'https://news.example.com' },
      {
        verification: {
          pagesChecked: 10,
          violations: 2,
          samples: ['script-src-elem blocked https://cdn.example.net/widget.js on https://news.example.com/'],
        },
      },
    );
    await t.page.goto(`${t.server.url}/analysis/${id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="verification"]');
    expect(
      await t.page.$eval('[data-testid="verification"]', (el) => (el as HTMLElement).dataset.state),
    ).toBe('violations');
    const all = await text();
    expect(all).toContain('Verified on 10 pages: 2 violations');
    expect(all).toContain('script-src-elem blocked https://cdn.example.net/widget.js');
    expect(all).toContain('Back to Dashboard');
  });

  it('shows a running analysis with its stages, a failed one, and a missing one', async () => {
    const running = await seedRunning(
      t.server.deps.db,
      { userId: t.user.id, domainId: null, url: 'https://www.example.net' },
      { progress: 55, currentPage: 'https://www.example.net/about', totalPages: 30 },
    );
    await t.page.goto(`${t.server.url}/analysis/${running}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="analysis-progress"]');
    let all = await text();
    for (const expected of [
      'Crawling Progress',
      'Actively crawling and analyzing resources...',
      'https://www.example.net/about',
      'Pages found',
      '30',
      '55%',
      'Completed Not yet',
    ]) {
      expect(all).toContain(expected);
    }
    const stages = await t.page.$$eval('[data-testid="crawl-stages"] li', (lis) =>
      lis.map((li) => `${(li as HTMLElement).dataset.stage}:${li.dataset.state}`),
    );
    expect(stages).toEqual([
      'Discovering URLs:done',
      'Crawling Website:done',
      'Analyzing Resources:active',
      'Generating CSP:upcoming',
      'Complete:upcoming',
    ]);

    const failed = await seedFailed(
      t.server.deps.db,
      { userId: t.user.id, domainId: null, url: 'https://x.example' },
      ['https://x.example/: net::ERR_NAME_NOT_RESOLVED'],
    );
    await t.page.goto(`${t.server.url}/analysis/${failed}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="analysis-failed"]');
    all = await text();
    expect(all).toContain('Analysis Failed');
    expect(all).toContain('The analysis encountered an error and could not be completed.');
    expect(all).toContain('https://x.example/: net::ERR_NAME_NOT_RESOLVED');

    t.guard.allowFailedRequest('/api/csp/analyze/no-such-analysis', 404);
    await t.page.goto(`${t.server.url}/analysis/no-such-analysis`, { waitUntil: 'load' });
    await t.page.waitForSelector('h1');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('Analysis Not Found');
    all = await text();
    expect(all).toContain("The requested analysis could not be found or you don't have access to it.");
    await clickText(t.page, 'a', 'Back to Dashboard');
    await waitForPath(t.page, '/dashboard');
  });
});

describe('standalone generator', () => {
  it("says 'Input Required' without input, then starts an analysis with the form's values", async () => {
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    // The domains added by earlier tests unlocked achievements: their overlay comes first.
    await dismissAchievementOverlay(t.page);
    await clickText(t.page, 'a', 'CSP Analyzer');
    await waitForPath(t.page, '/csp-generator');
    await t.page.waitForSelector('form[aria-label="Analyze website"]');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('CSP Analyzer');
    expect(await text()).toContain('automatically discovers the sitemap');

    await clickText(t.page, 'button', 'Analyze');
    const toast = await waitForToast(t.page, 'Input Required');
    expect(toast.variant).toBe('destructive');
    expect(toast.text).toContain('Please provide a URL, URL list, or sitemap content.');

    await t.page.type('input[name="url"]', 'https://www.example.org');
    await clickText(t.page, 'button', 'Advanced Options');
    await fill(t.page, 'input[name="maxPages"]', '3');
    // An out-of-range budget shows the schema's message and sends nothing.
    await fill(t.page, 'input[name="headerBudget"]', '100');
    await clickText(t.page, 'button', 'Analyze');
    await t.page.waitForSelector('#analyze-header-budget-error');
    expect(await t.page.$eval('#analyze-header-budget-error', (p) => p.textContent)).toBe(
      `headerBudget must be between ${CRAWL_LIMITS.headerBudget.min} and ${CRAWL_LIMITS.headerBudget.max} bytes`,
    );
    expect(await t.page.evaluate(() => location.search)).toBe('');
    await fill(t.page, 'input[name="headerBudget"]', '6000');
    await clickText(t.page, 'span', 'CloudFront response-headers policy');
    await clickText(t.page, 'button', 'Analyze');
    await t.page.waitForSelector('[data-testid="analysis-progress"]');
    const id = await t.page.evaluate(() => new URL(location.href).searchParams.get('analysis'));
    expect(id).toBeTruthy();
    const all = await text();
    for (const expected of [
      'CSP Analysis in Progress',
      'https://www.example.org',
      'Discovering URLs',
      'Crawling Website',
      'Analyzing Resources',
      'Generating CSP',
      'Complete',
      'Pages found',
    ]) {
      expect(all).toContain(expected);
    }
    // About to start, or queued behind this user's analyses of earlier tests (the queue crawls nothing).
    expect(all).toMatch(/Initializing analysis engine\.\.\.|Queued — position \d+/);
    const record = await getAnalysis(t.server.deps.db, id!);
    expect(record?.crawlRequest).toMatchObject({
      url: 'https://www.example.org',
      maxPages: 3,
      crawlDelay: CRAWL_LIMITS.crawlDelay.default,
      headerBudget: 6000,
      policyTarget: 'cloudfront',
    });
  });

  it('shows completed results: summary, recommendations, quick actions, report download and sharing', async () => {
    const id = await seedCompleted(t.server.deps.db, {
      userId: t.user.id,
      domainId: null,
      url: 'https://www.example.org',
    });
    await t.page.goto(`${t.server.url}/csp-generator?analysis=${id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="policy-card"]');
    const all = await text();
    for (const expected of [
      'Analysis Results',
      'Analysis Summary',
      'Total Resources',
      'Unique Domains',
      'Security Issues',
      'Analysis Time',
      'Security Recommendations',
      'Quick Actions',
      'Test CSP Policy',
      'Download Report',
      'Share Results',
      'Analysis Errors',
      'Verified on 12 pages: 0 violations',
    ]) {
      expect(all).toContain(expected);
    }
    const evaluator = await t.page.$eval('xpath/.//a[contains(., "Test CSP Policy")]', (a) => ({
      href: (a as HTMLAnchorElement).href,
      target: (a as HTMLAnchorElement).target,
      rel: (a as HTMLAnchorElement).rel,
    }));
    expect(evaluator).toEqual({
      href: 'https://csp-evaluator.withgoogle.com/',
      target: '_blank',
      rel: 'noopener noreferrer',
    });

    await clickText(t.page, 'button', 'Download Report');
    const report = JSON.parse(await downloaded('csp-analysis-report.json'));
    const analysis = (await (await t.client.get(`/api/csp/analyze/${id}`)).json()).analysis;
    expect(report).toEqual({
      url: 'https://www.example.org',
      timestamp: analysis.completedAt,
      cspRules: ALLOWLIST_RULES,
      stats: analysis.resourceStats,
      errors: PAGE_ERRORS,
    });

    // Without a share sheet, the page URL is copied and an alert says so.
    await t.page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined }));
    const alerted = new Promise<string>((resolve) =>
      t.page.once('dialog', (dialog) => {
        resolve(dialog.message());
        void dialog.accept();
      }),
    );
    // The clipboard takes writes from the page in front only (another test's page may have come forward).
    await t.page.bringToFront();
    await clickText(t.page, 'button', 'Share Results');
    // A refused copy shows a toast instead of the alert: said at once, not after the test's timeout.
    const refused = t.page
      .waitForSelector('xpath/.//*[normalize-space()="Copy Failed"]', { timeout: 30_000 })
      .then(() => "the 'Copy Failed' toast");
    expect(await Promise.race([alerted, refused])).toBe('URL copied to clipboard!');
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).toBe(
      `${t.server.url}/csp-generator?analysis=${id}`,
    );

    // Under load a click can land while the results re-render (the share dialog just closed); a user would
    // click again, and so does the test, a few times at most.
    for (let tries = 0; tries < 3 && (await t.page.evaluate(() => location.search)); tries++) {
      await clickText(t.page, 'button', 'Start New Analysis');
      await t.page.waitForFunction(() => !location.search, { timeout: 10_000 }).catch(() => {});
    }
    await t.page.waitForFunction(() => !location.search);
    // React re-renders after the URL changes: wait for the card to go rather than look at once.
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="policy-card"]'));
  });

  it("shows a failed analysis with its errors; 'Start New Analysis' clears it", async () => {
    const id = await seedFailed(
      t.server.deps.db,
      { userId: t.user.id, domainId: null, url: 'https://down.example' },
      ['https://down.example/: net::ERR_CONNECTION_REFUSED'],
    );
    await t.page.goto(`${t.server.url}/csp-generator?analysis=${id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="analysis-failed"]');
    const all = await text();
    expect(all).toContain('Analysis Failed');
    expect(all).toContain('We encountered an error while analyzing https://down.example');
    expect(all).toContain('Error Details');
    expect(all).toContain('https://down.example/: net::ERR_CONNECTION_REFUSED');
    await clickText(t.page, 'button', 'Start New Analysis');
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="analysis-failed"]'));
    expect(await t.page.evaluate(() => location.search)).toBe('');
    expect(await t.page.$('form[aria-label="Analyze website"]')).not.toBeNull();
  });
});

describe('phone layout', () => {
  it('lays the domain, analysis and generator screens out without horizontal scrolling', async () => {
    const domain = await createDomain(
      'A domain with a rather long name for a phone',
      'https://phone.example.com',
    );
    const target = { userId: t.user.id, domainId: domain.id, url: domain.url };
    const completed = await seedCompleted(t.server.deps.db, target);
    const running = await seedRunning(t.server.deps.db, target, {
      progress: 60,
      currentPage: `https://phone.example.com/${'very-long-path-segment/'.repeat(6)}`,
      totalPages: 8,
    });
    await t.page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    try {
      for (const [path, selector] of [
        [`/domains/${domain.id}`, '[data-testid="history-row"]'],
        [`/analysis/${completed}`, '[data-testid="policy-card"]'],
        [`/analysis/${running}`, '[data-testid="analysis-progress"]'],
        [`/csp-generator?analysis=${completed}`, '[data-testid="policy-card"]'],
      ] as const) {
        await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'load' });
        await t.page.waitForSelector(selector);
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
