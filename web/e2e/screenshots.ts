// Screenshots of every screen at desktop (1440x900) and phone (390x844) widths, for looking at the UI.
// Usage: npx tsx web/e2e/screenshots.ts <base url of a running product | --local> [output dir]
// It registers a throw-away account and adds a few domains to it. With --local (the default) it starts the
// product in-process on a DynamoDB Local of its own, with a crawl handler that does nothing, and also writes
// analyses in every state into the store for the domain, analysis and generator screens.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Db } from '@csp/functions/src/store/db';
import type { Page } from 'puppeteer-core';
import { newAccount, registerAccount, solvedAltcha } from './accounts';
import { launchBrowser } from './browser';
import { clickText, dismissAchievementOverlay, signOutInBrowser } from './harness';
import {
  CAPTURE,
  FINDINGS,
  HEADER_BUDGET,
  REMAINING_VERIFICATION,
  seedCompleted,
  seedFailed,
  seedQueued,
  seedRunning,
} from './seed';

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
] as const;

/** The product in this process, on its own in-memory DynamoDB Local; the crawl queue does nothing. */
async function startLocal() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const [{ startDynamoLocal }, { startLocalServer }, { buildWeb }] = await Promise.all([
    import('@csp/functions/src/local/dynamo-local'),
    import('@csp/functions/src/local/server'),
    import('./harness'),
  ]);
  const dynamo = await startDynamoLocal({ inMemory: true });
  const server = await startLocalServer({
    port: 0,
    dynamoEndpoint: dynamo.endpoint,
    tableName: 'screenshots',
    webDist: buildWeb(),
    env: { ALTCHA_MAX_NUMBER: '2000', SCRYPT_LOG_N: '14', LOG_LEVEL: 'silent' },
    crawlHandler: () => async () => {},
  });
  return {
    url: server.url,
    db: server.deps.db,
    async close() {
      await server.close();
      await dynamo.stop();
    },
  };
}

async function main() {
  const target = process.argv[2] ?? '--local';
  const local = target === '--local' ? await startLocal() : null;
  const baseUrl = local?.url ?? target;
  const outDir = resolve(process.argv[3] ?? '.test-artifacts/screenshots');
  mkdirSync(outDir, { recursive: true });
  const browser = await launchBrowser();
  const page = await browser.newPage();
  // A long part of a screen is drawn only near the window (`render-when-near`, index.css): a user scrolling
  // to it sees it, but a capture of the whole page or of a tall element would show it blank. Drawn always here.
  await page.setBypassCSP(true);
  await page.evaluateOnNewDocument(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = '.render-when-near { content-visibility: visible !important; }';
      document.head.append(style);
    });
  });
  // The tour leaves the rules generator with unsaved changes: leave anyway when the page asks.
  page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') console.log(`[console ${m.type()}] ${m.text()}`);
  });
  const shot = async (name: string, viewport: string, fullPage: boolean | string = true) => {
    const path = join(outDir, `${name}-${viewport}.png`);
    if (typeof fullPage === 'string') {
      // One element of the page (a panel), whatever its height.
      const element = await page.waitForSelector(fullPage);
      await element!.screenshot({ path });
      console.log(path);
      return;
    }
    await page.screenshot({ path, fullPage });
    console.log(path);
    if (fullPage && viewport === 'phone' && process.env.SLICES) {
      // Phone pages are long: also save screen-sized slices, easier to look at.
      const { width, height } = page.viewport()!;
      const total = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, i = 1; y < total; y += height, i++) {
        await page.screenshot({
          path: join(outDir, `${name}-${viewport}-${i}.png`),
          clip: { x: 0, y, width, height: Math.min(height, total - y), scale: 1 },
          captureBeyondViewport: true,
        });
      }
    }
  };

  const account = newAccount('Ada');
  await registerAccount(baseUrl, account);
  let seeded: Seeded | undefined;

  for (const vp of VIEWPORTS) {
    await page.setViewport(vp);
    await signOutInBrowser(page);

    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle0' });
    await shot('landing', vp.name);
    await page.goto(`${baseUrl}/auth`, { waitUntil: 'networkidle0' });
    await shot('auth', vp.name);
    await page.click('button[type="submit"]');
    await shot('auth-validation', vp.name, false);
    await page.goto(`${baseUrl}/auth?mode=register`, { waitUntil: 'networkidle0' });
    await shot('register', vp.name);
    await page.goto(`${baseUrl}/this/does/not/exist`, { waitUntil: 'networkidle0' });
    await shot('not-found', vp.name);
    await page.goto(`${baseUrl}/dashboard`, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="toast"]');
    await shot('unauthorized-toast', vp.name, false);
    await page.waitForFunction(() => location.pathname === '/auth');

    await signIn(page, account.username, account.password);
    await page.waitForSelector('[data-testid="stat-card"]');
    await shot('dashboard-empty', vp.name);

    if (vp.name === 'desktop') seeded = await seed(page, baseUrl, local?.db ?? null);
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="stat-card"]');
    // The domains just added unlocked 'First Domain': its overlay first.
    if (
      await page.waitForSelector('[data-testid="achievement-overlay"]', { timeout: 2000 }).catch(() => null)
    ) {
      await new Promise((r) => setTimeout(r, 400)); // past the confetti's first frames
      await shot('achievement-overlay', vp.name, false);
      await dismissAchievementOverlay(page);
    }
    await shot('dashboard', vp.name);
    // A tile's tooltip at the screen's edge: it must stay readable and uncut.
    await page.hover('[aria-label="About Total Domains"]');
    await page.waitForSelector('[role="tooltip"]');
    await new Promise((r) => setTimeout(r, 400)); // past the fade-in
    await shot('dashboard-tooltip', vp.name, false);
    await page.mouse.move(0, 0);
    const toggle = await page.$('main button[aria-expanded]');
    if (toggle) {
      await toggle.click();
      await shot('dashboard-achievements', vp.name);
    }

    await page.goto(`${baseUrl}/domains/new`, { waitUntil: 'networkidle0' });
    await shot('domain-new', vp.name);
    await page.type('input[name="url"]', 'not a url');
    await page.click('button[type="submit"]');
    await shot('domain-new-errors', vp.name);
    await page.goto(`${baseUrl}/settings`, { waitUntil: 'networkidle0' });
    await shot('settings-profile', vp.name);
    await clickText(page, 'button', 'Security');
    await page.waitForSelector('[data-testid="setup-2fa"]');
    await page.click('[data-testid="setup-2fa"]');
    await page.waitForSelector('[data-testid="qr-code"]');
    await shot('settings-security', vp.name);
    await teamScreens(page, baseUrl, (name, full: boolean | string = true) => shot(name, vp.name, full));
    await page.goto(`${baseUrl}/admin`, { waitUntil: 'networkidle0' });
    await shot('admin-refused', vp.name);
    if (local) {
      // The same account as an administrator (the store is at hand in --local mode).
      const { getUserByUsername, updateUserFields } = await import('@csp/functions/src/store/users');
      const me = await getUserByUsername(local.db, account.username);
      if (me) await updateUserFields(local.db, me.id, { role: 'admin' });
      await page.goto(`${baseUrl}/admin`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('[data-testid="admin-users"]');
      await shot('admin-users', vp.name);
      await page.click('[role="tab"][id$="-tab-analyses"]');
      await page.waitForSelector('[data-testid="admin-analyses"]');
      await shot('admin-analyses', vp.name);
      if (me) await updateUserFields(local.db, me.id, { role: 'user' });
    }
    if (seeded)
      await analysisScreens(page, baseUrl, seeded, (name, full: boolean | string = true) =>
        shot(name, vp.name, full),
      );
    await page.goto(`${baseUrl}/auth`, { waitUntil: 'networkidle0' });
  }
  await browser.close();
  await local?.close();
}

/**
 * Settings › Team before and after a team exists (a member who joined and a pending invitation), and an
 * invitation page that says why it cannot be accepted (it was sent to someone else).
 */
async function teamScreens(
  page: Page,
  baseUrl: string,
  shot: (name: string, fullPage?: boolean | string) => Promise<void>,
) {
  await page.goto(`${baseUrl}/settings?tab=team`, { waitUntil: 'networkidle0' });
  await page.waitForSelector('form[aria-label="Create a Team"], [data-testid="team-card"]');
  const cookieOf = async () =>
    (await page.browserContext().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const call = async (method: string, path: string, cookie: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res;
  };
  if (await page.$('form[aria-label="Create a Team"]')) {
    await shot('settings-team-create');
    const owner = await cookieOf();
    const team = (await (
      await call('POST', '/api/teams', owner, {
        name: 'Northwind Digital',
        slug: `northwind-${Date.now().toString(36)}`,
        description: 'The agency team: everyone sees the client sites, read-only.',
        maxMembers: 10,
      })
    ).json()) as { id: string };
    const ben = newAccount('Ben');
    const registered = await fetch(`${baseUrl}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl },
      body: JSON.stringify({ ...ben, lastName: 'Okafor', altcha: await solvedAltcha(baseUrl) }),
    });
    const benCookie = registered.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const invited = (await (
      await call('POST', `/api/teams/${team.id}/invitations`, owner, { email: ben.email })
    ).json()) as { link: string };
    await call(
      'POST',
      `/api/invitations/${new URL(invited.link).pathname.split('/').pop()}/accept`,
      benCookie,
    );
    await call('POST', `/api/teams/${team.id}/invitations`, owner, { email: 'client.contact@example.org' });
    await page.reload({ waitUntil: 'networkidle0' });
  }
  await page.waitForSelector('[data-testid="team-member"]');
  await shot('settings-team');
  // A pending invitation's Actions menu, over the table's edge: it must not be cut off.
  if (await page.$('[data-testid="invitation-actions"]')) {
    await page.click('[data-testid="invitation-actions"]');
    await page.waitForSelector('[role="menu"]:popover-open');
    await shot('settings-team-actions', false);
    await page.keyboard.press('Escape');
  }
  const [pending] = (await (await call('GET', '/api/teams/invitations', await cookieOf())).json()) as {
    link: string;
  }[];
  if (pending) {
    await page.goto(pending.link, { waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="invitation-problem"]');
    await shot('invite-wrong-address');
  }
}

/** Polling screens never reach network idle: wait for a selector, then for animations to settle. */
async function open(page: Page, url: string, selector: string) {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForSelector(selector);
  // Past the generator's scroll to its results (500 ms, then a smooth scroll) and the progress animations.
  await new Promise((r) => setTimeout(r, 1500));
}

async function analysisScreens(
  page: Page,
  baseUrl: string,
  s: Seeded,
  shot: (name: string, fullPage?: boolean | string) => Promise<void>,
) {
  await open(page, `${baseUrl}/domains/${s.domainId}`, '[data-testid="history-row"]');
  await page.waitForSelector('[data-testid="report-suggestion"]');
  await shot('domain-detail');
  // The rules generator, as a user fills it in: a name, a custom rule, reports on, the nonce.
  await page.waitForSelector('[data-testid="composed-policy"]');
  await page.type('[data-testid="configuration-name"]', 'Production policy');
  await page.type('[data-testid="custom-rule-source"]', 'https://widgets.example.net');
  await page.keyboard.press('Enter');
  await page.click('[data-testid="include-uri-reports"]');
  await page.click('[data-testid="include-nonce"]');
  await page.waitForSelector('[data-testid="config-suggestion"]');
  await shot('rules-generator', '[data-testid="rules-generator"]');
  await clickText(page, 'button', 'Advanced Settings');
  await page.waitForSelector('form[aria-label="Advanced settings"]');
  await page.click('input[name="maxPages"]', { count: 3 });
  await page.keyboard.type('0');
  await page.type('textarea[name="urlList"]', 'not a url');
  await clickText(page, 'button', 'Start Analysis');
  await shot('domain-detail-advanced');
  await clickText(page, 'button', 'Delete Domain');
  await page.waitForSelector('dialog[open]');
  await new Promise((r) => setTimeout(r, 300));
  await shot('domain-delete-dialog', false);
  await page.keyboard.press('Escape');
  await open(
    page,
    `${baseUrl}/domains/${s.emptyDomainId}`,
    'xpath/.//p[normalize-space()="No analyses yet"]',
  );
  await shot('domain-detail-empty');

  await open(page, `${baseUrl}/analysis/${s.completed}`, '[data-testid="policy-card"]');
  await shot('analysis-completed');
  await clickText(page, 'label', 'Strict');
  await new Promise((r) => setTimeout(r, 300));
  await shot('analysis-strict');
  await open(page, `${baseUrl}/analysis/${s.violations}`, '[data-testid="verification"]');
  await shot('analysis-violations', false);
  await open(page, `${baseUrl}/analysis/${s.attention}`, '[data-testid="crawl-coverage"]');
  await shot('analysis-attention');
  await open(page, `${baseUrl}/analysis/${s.running}`, '[data-testid="analysis-progress"]');
  await shot('analysis-running');
  await open(page, `${baseUrl}/analysis/${s.verifying}`, '[data-testid="analysis-progress"]');
  await shot('analysis-verifying', false);
  await open(page, `${baseUrl}/analysis/${s.queued}`, '[data-testid="analysis-progress"]');
  await shot('analysis-queued', false);
  await open(page, `${baseUrl}/analysis/${s.failed}`, '[data-testid="analysis-failed"]');
  await shot('analysis-failed');
  await open(page, `${baseUrl}/analysis/not-an-analysis`, 'h1');
  await shot('analysis-not-found');

  await open(page, `${baseUrl}/csp-generator`, 'form[aria-label="Analyze website"]');
  await shot('generator');
  await clickText(page, 'button', 'Analyze');
  await page.waitForSelector('[data-testid="toast"]');
  await shot('generator-input-required', false);
  await clickText(page, 'button', 'Advanced Options');
  await shot('generator-advanced');
  await open(
    page,
    `${baseUrl}/csp-generator?analysis=${s.standaloneRunning}`,
    '[data-testid="analysis-progress"]',
  );
  await shot('generator-progress');
  await open(
    page,
    `${baseUrl}/csp-generator?analysis=${s.standaloneCompleted}`,
    '[data-testid="policy-card"]',
  );
  await shot('generator-results');
  await open(
    page,
    `${baseUrl}/csp-generator?analysis=${s.standaloneFailed}`,
    '[data-testid="analysis-failed"]',
  );
  await shot('generator-failed');
}

async function signIn(page: Page, username: string, password: string) {
  await page.waitForSelector('input[name="username"]');
  await page.type('input[name="username"]', username);
  await page.type('input[name="password"]', password);
  await page.waitForSelector('altcha-widget [data-state="verified"]', { timeout: 30_000 });
  await page.click('button[type="submit"]');
  await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: 15_000 });
}

/** Violation reports as browsers send them, through the real endpoint; resolves once the list shows them. */
async function seedReports(baseUrl: string, uuid: string, domainId: string, cookie: string) {
  const page = 'https://www.example.com';
  const reports = [
    ['script-src-elem', 'https://cdn.example.net/widget.js', '/pricing', ''],
    ['script-src-elem', 'https://cdn.example.net/widget.js', '/', ''],
    ['img-src', 'https://www.example.com/img/hero@2x.png', '/about', ''],
    ['connect-src', 'https://api.analytics.example.io/v2/collect?session=8f2a', '/checkout', ''],
    ['script-src-elem', 'inline', '/search?q=shoes', '<img src=x onerror=alert(document.cookie)>'],
    ['style-src-attr', 'inline', '/pricing', 'color: red'],
  ];
  for (const [directive, blocked, path, sample] of reports) {
    const res = await fetch(`${baseUrl}/api/uri-report?domain=${uuid}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/csp-report',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
      },
      body: JSON.stringify({
        'csp-report': {
          'document-uri': `${page}${path}`,
          'violated-directive': directive,
          'blocked-uri': blocked,
          'script-sample': sample,
          'source-file': `${page}/assets/app.js`,
          'line-number': '42',
          'column-number': '17',
        },
      }),
    });
    if (res.status !== 204) throw new Error(`report answered ${res.status}`);
  }
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${baseUrl}/api/domains/${domainId}/uri-reports`, { headers: { cookie } });
    if (((await res.json()) as { total: number }).total >= reports.length) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Seeded {
  domainId: string;
  emptyDomainId: string;
  completed: string;
  violations: string;
  attention: string;
  running: string;
  verifying: string;
  queued: string;
  failed: string;
  standaloneRunning: string;
  standaloneCompleted: string;
  standaloneFailed: string;
}

async function seed(page: Page, baseUrl: string, db: Db | null): Promise<Seeded | undefined> {
  const cookie = (await page.browserContext().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string; uuid: string };
  };
  const domains = [
    { name: 'Marketing site', url: 'https://www.example.com', isActive: true },
    { name: 'Customer portal', url: 'https://app.example.com', isActive: true },
    {
      name: 'Legacy blog (archived)',
      url: 'https://blog.example.org/very/long/path/to/the/start/page',
      isActive: false,
    },
  ];
  const created = [];
  for (const d of domains) created.push(await post('/api/domains', d));
  if (!db) {
    await post('/api/csp-analyses', {
      domainId: created[0]!.id,
      crawlRequest: { url: 'https://www.example.com' },
    });
    return undefined;
  }
  await seedReports(baseUrl, created[0]!.uuid, created[0]!.id, cookie);
  const me = await fetch(`${baseUrl}/api/user`, { headers: { cookie } });
  const userId = ((await me.json()) as { id: string }).id;
  const site = { userId, domainId: created[0]!.id, url: 'https://www.example.com' };
  const standalone = { userId, domainId: null, url: 'https://shop.example.org' };
  const failedErrors = [
    'https://www.example.com/: net::ERR_CONNECTION_TIMED_OUT',
    'The crawl stopped after 3 failed attempts and was abandoned. Please start a new analysis.',
  ];
  const completed = await seedCompleted(db, site);
  const failed = await seedFailed(db, site, failedErrors);
  const violations = await seedCompleted(db, site, {
    verification: {
      pagesChecked: 10,
      violations: 2,
      samples: [
        'script-src-elem blocked https://cdn.example.net/widget.js on https://www.example.com/',
        "style-src-attr blocked inline style on https://www.example.com/pricing (sample: 'color: red')",
      ],
    },
  });
  const insights = {
    capture: CAPTURE,
    findings: FINDINGS,
    budget: HEADER_BUDGET,
    verification: REMAINING_VERIFICATION,
    needsAttention: true,
  };
  const attention = await seedCompleted(db, site, insights);
  const verifying = await seedRunning(db, site, {
    stage: 'verifying',
    progress: 93,
    currentPage: 'https://www.example.com/pricing',
    totalPages: 37,
  });
  const queued = await seedQueued(db, standalone);
  const running = await seedRunning(db, site, {
    stage: 'crawling',
    progress: 41,
    currentPage: 'https://www.example.com/products/enterprise-security-suite',
    totalPages: 37,
  });
  return {
    domainId: created[0]!.id,
    emptyDomainId: created[1]!.id,
    completed,
    violations,
    attention,
    running,
    verifying,
    queued,
    failed,
    standaloneRunning: await seedRunning(db, standalone, {
      stage: 'rerendering',
      progress: 84,
      currentPage: 'https://shop.example.org/collections/new',
      totalPages: 12,
    }),
    standaloneCompleted: await seedCompleted(db, standalone, insights),
    standaloneFailed: await seedFailed(db, standalone, failedErrors.slice(0, 1)),
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
