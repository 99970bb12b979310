// Screenshots of every screen at desktop (1280x800) and phone (390x844) widths, for looking at the UI.
// Usage: npx tsx web/e2e/screenshots.ts <base url of a running product> [output dir]
// It registers a throw-away account and adds a few domains to it.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { newAccount, registerAccount } from './accounts';
import { launchBrowser } from './browser';

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
] as const;

async function main() {
  const baseUrl = process.argv[2] ?? 'http://127.0.0.1:3000';
  const outDir = resolve(process.argv[3] ?? '.test-artifacts/screenshots');
  mkdirSync(outDir, { recursive: true });
  const browser = await launchBrowser();
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') console.log(`[console ${m.type()}] ${m.text()}`);
  });
  const shot = async (name: string, viewport: string, fullPage = true) => {
    const path = join(outDir, `${name}-${viewport}.png`);
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

  for (const vp of VIEWPORTS) {
    await page.setViewport(vp);
    const client = await page.createCDPSession();
    await client.send('Network.clearBrowserCookies');

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

    if (vp.name === 'desktop') await seed(page, baseUrl);
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector('[data-testid="stat-card"]');
    await shot('dashboard', vp.name);
    const toggle = await page.$('button[aria-expanded]');
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
    await shot('coming-soon', vp.name);
    await page.goto(`${baseUrl}/auth`, { waitUntil: 'networkidle0' });
  }
  await browser.close();
}

async function signIn(page: Page, username: string, password: string) {
  await page.waitForSelector('input[name="username"]');
  await page.type('input[name="username"]', username);
  await page.type('input[name="password"]', password);
  await page.click('altcha-widget input[type="checkbox"]');
  await page.waitForSelector('altcha-widget [data-state="verified"]', { timeout: 30_000 });
  await page.click('button[type="submit"]');
  await page.waitForFunction(() => location.pathname === '/dashboard', { timeout: 15_000 });
}

async function seed(page: Page, baseUrl: string) {
  const cookie = (await page.browserContext().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, cookie },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { id: string };
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
  await post('/api/csp-analyses', {
    domainId: created[0]!.id,
    crawlRequest: { url: 'https://www.example.com' },
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
