// Lighthouse (performance, accessibility, best practices) on the product as `npm start` runs it (its own
// DynamoDB Local on a temporary DATA_DIR, a free port, the web build when its sources changed), in the
// Chromium we ship: the landing page, /auth, the dashboard and a domain screen with data, both signed in
// (a user registered through the API; the browser holds its cookies). Prints the scores per page,
// the audits that cost points, and the initial JavaScript gzipped, each against its target. A benchmark:
// it reports, it does not fail. Only loopback traffic: every request a page made is checked.
// Run: npm run bench:web   (FORM_FACTOR=desktop for Lighthouse's desktop settings; mobile by default;
// LIGHTHOUSE_JSON_DIR=<dir> to keep each page's report; LIGHTHOUSE_PAGES=domain,/auth for only those;
// LIGHTHOUSE_RUNS (3) runs per page, the median reported; WARM_UP_LOADS (15) loads of each page before)
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ENDPOINT_FILE } from '@csp/functions/src/local/endpoint-file';
import { createDb } from '@csp/functions/src/store/db';
import { registeredClient } from '@csp/functions/src/testing/api-server';
import lighthouse, { desktopConfig, type Flags, type Result } from 'lighthouse';
import { markUnlocksSeen } from '../e2e/accounts';
import { launchBrowser } from '../e2e/browser';
import { seedCompleted } from '../e2e/seed';

// Lambda runs Node 22; locally Node 20 is supported, so the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = join(ROOT, 'functions/src/local/main.ts');
const DIST = join(ROOT, 'web/dist');
const SCORE_TARGET = 95;
const INITIAL_JS_TARGET_KB = 200;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
/** Lighthouse runs per page (LIGHTHOUSE_RUNS): the median one is reported. */
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

async function startProduct(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--build-web'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk.toString().replace(/^(?=.)/gm, '  [npm start] '));
      out += chunk.toString();
      const m = /running on (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1]!, child });
    });
    child.once('exit', (code) => fail(new Error(`the product exited (${code})`)));
  });
}

/** Loads of each page before the measured runs (WARM_UP_LOADS), in a browser context of their own. */
const WARM_UP_LOADS = Math.max(0, Number(process.env.WARM_UP_LOADS ?? 15));

/**
 * Loads each page WARM_UP_LOADS times before anything is measured, as a running service has served pages
 * before the next visitor: a freshly started server (Node's and DynamoDB Local's JIT, the compressed
 * files) answered its first reads some three times slower than after a few hundred, so the first of a
 * page's runs measured the server's start, not the web app, and the median moved with the pages' order.
 * Prints how long the API's answers took in the first and the last load, so the warm-up is on the record.
 */
async function warmUp(
  browser: Awaited<ReturnType<typeof launchBrowser>>,
  url: string,
  cookies: Map<string, string>,
  paths: string[],
): Promise<void> {
  if (WARM_UP_LOADS === 0) return;
  const context = await browser.createBrowserContext();
  try {
    const host = new URL(url).hostname;
    await context.setCookie(
      ...[...cookies].map(([name, value]) => ({ name, value, domain: host, path: '/' })),
    );
    const page = await context.newPage();
    const apiMs: number[] = [];
    for (let i = 0; i < WARM_UP_LOADS; i++) {
      const times: number[] = [];
      for (const path of paths) {
        await page.goto(`${url}${path}`, { waitUntil: 'networkidle0' });
        times.push(
          ...(await page.evaluate(() =>
            performance
              .getEntriesByType('resource')
              .filter((e) => new URL(e.name).pathname.startsWith('/api/'))
              .map(
                (e) =>
                  (e as PerformanceResourceTiming).responseStart -
                  (e as PerformanceResourceTiming).requestStart,
              ),
          )),
        );
      }
      apiMs.push(times.reduce((a, b) => a + b, 0) / Math.max(1, times.length));
    }
    console.log(
      `
Warm-up: ${WARM_UP_LOADS} loads of each page; the API answered in ${apiMs[0]!.toFixed(0)} ms on average in the first, ${apiMs.at(-1)!.toFixed(0)} ms in the last`,
    );
  } finally {
    await context.close();
  }
}

/** A signed-in user with a domain that has a completed analysis and a few violation reports. */
async function seedUser(url: string, dataDir: string) {
  const { client, user } = await registeredClient(url, { firstName: 'Grace' });
  const res = await client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com' });
  if (res.status !== 201) throw new Error(`domain: ${res.status} ${await res.text()}`);
  const domain = (await res.json()) as { id: string; url: string };
  const endpoint = readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8').trim();
  const db = createDb({ table: process.env.TABLE_NAME ?? 'csp-generator', endpoint, region: 'local' });
  await seedCompleted(db, { userId: user.id, domainId: domain.id, url: domain.url });
  for (const [i, blocked] of [
    'https://evil.example.net/x.js',
    'inline',
    'https://cdn.example.org/a.css',
  ].entries()) {
    await fetch(`${url}/api/uri-report?domain=${domain.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify({
        'csp-report': {
          'document-uri': `${domain.url}/page-${i}`,
          'violated-directive': i === 2 ? 'style-src-elem' : 'script-src-elem',
          'effective-directive': i === 2 ? 'style-src-elem' : 'script-src-elem',
          'blocked-uri': blocked,
          'original-policy': "default-src 'self'",
          disposition: 'report',
        },
      }),
    });
  }
  db.doc.destroy();
  // A returning user: the unlocks so far (First Domain) were celebrated on an earlier visit. The overlay shows
  // once per unlock, after the screen is at rest, and its 8 s of confetti are not the screen's load.
  await markUnlocksSeen(client);
  return { cookies: client.cookies, domainId: domain.id };
}

const gzipKb = (file: string) => gzipSync(readFileSync(file)).length / 1024;
const distFile = (path: string) => join(DIST, decodeURIComponent(path));

/** The JavaScript every page loads first: index.html's module script and what it preloads. */
function initialJsKb(): { kb: number; files: string[] } {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const files = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((m) => m[1]!);
  return { kb: files.reduce((sum, f) => sum + gzipKb(distFile(f)), 0), files };
}

interface NetworkItem {
  url: string;
  resourceType?: string;
}

function networkItems(lhr: Result): NetworkItem[] {
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  return details?.items ?? [];
}

interface DetailItem {
  node?: { snippet?: string; nodeLabel?: string; explanation?: string };
  description?: string;
  url?: string;
}

const describeItem = (item: DetailItem) =>
  item.node
    ? `"${item.node.nodeLabel ?? ''}" ${item.node.snippet ?? ''}: ${(item.node.explanation ?? '').replace(/^Fix any of the following:\s*/, '').replace(/\s+/g, ' ')}`
    : `${item.description ?? ''} ${item.url ?? ''}`.trim();

const isLoopback = (url: string) => {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:') return true;
  return ['localhost', '127.0.0.1', '[::1]'].includes(hostname);
};

/** The audits of a category that lost points, heaviest first (what to fix to reach the target). */
function lostPoints(lhr: Result, category: string): string[] {
  const cat = lhr.categories[category]!;
  const total = cat.auditRefs.reduce((s, r) => s + r.weight, 0);
  return cat.auditRefs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id]! }))
    .filter(({ ref, audit }) => ref.weight > 0 && audit.score !== null && audit.score < 1)
    .map(({ ref, audit }) => ({
      lost: (ref.weight * (1 - (audit.score ?? 0)) * 100) / total,
      text: `${audit.id} (${audit.displayValue ? `${audit.displayValue}, ` : ''}score ${Math.round((audit.score ?? 0) * 100)})`,
    }))
    .sort((a, b) => b.lost - a.lost)
    .map((a) => `-${a.lost.toFixed(1)} ${a.text}`);
}

const mark = (ok: boolean) => (ok ? 'pass' : 'FAIL');

const dataDir = mkdtempSync(join(tmpdir(), 'csp-lighthouse-bench-'));
const product = await startProduct(dataDir);
const browser = await launchBrowser();
let failures = 0;
try {
  const { cookies, domainId } = await seedUser(product.url, dataDir);
  const port = Number(new URL(browser.wsEndpoint()).port);
  const desktop = process.env.FORM_FACTOR === 'desktop';
  const pages = [
    { name: 'landing', path: '/', signedIn: false },
    { name: '/auth', path: '/auth', signedIn: false },
    { name: 'dashboard', path: '/dashboard', signedIn: true },
    { name: 'domain', path: `/domains/${domainId}`, signedIn: true },
  ];
  await warmUp(
    browser,
    product.url,
    cookies,
    pages.map((p) => p.path),
  );
  console.log(
    `\nLighthouse ${desktop ? 'desktop' : 'mobile (its default: simulated slow 4G, 4× CPU)'}, target ≥ ${SCORE_TARGET} each; the median of ${RUNS} run(s) per page`,
  );
  // LIGHTHOUSE_PAGES=domain,dashboard measures only those (while working on one screen).
  const only = process.env.LIGHTHOUSE_PAGES?.split(',').map((n) => n.trim());
  for (const p of pages.filter((page) => !only || only.includes(page.name))) {
    // The browser holds the session as after a sign-in (its cookies, the readable signed-in marker
    // included; Lighthouse's storage reset keeps cookies); the visitor pages come first, without them.
    if (p.signedIn) {
      const domain = new URL(product.url).hostname;
      await browser.setCookie(...[...cookies].map(([name, value]) => ({ name, value, domain, path: '/' })));
    }
    const flags: Flags = {
      port,
      hostname: '127.0.0.1',
      logLevel: 'error',
      output: 'json',
      onlyCategories: [...CATEGORIES],
      // Not scored; its screenshot times out on a busy machine.
      disableFullPageScreenshot: true,
      maxWaitForLoad: 120_000,
    };
    let lhr: Result;
    let performanceScores = '';
    try {
      // The run with the median performance score of RUNS (Lighthouse's own advice on a noisy machine: one
      // run's Total Blocking Time here ranged 260-1,820 ms for the same screen).
      const runs: Result[] = [];
      for (let i = 0; i < RUNS; i++) {
        const run = await lighthouse(`${product.url}${p.path}`, flags, desktop ? desktopConfig : undefined);
        if (!run) throw new Error('Lighthouse returned nothing');
        if (run.lhr.runtimeError) throw new Error(run.lhr.runtimeError.message);
        if (new URL(run.lhr.finalDisplayedUrl).pathname !== p.path) {
          throw new Error(`ended on ${run.lhr.finalDisplayedUrl} (not signed in?)`);
        }
        runs.push(run.lhr);
      }
      const score = (r: Result) => r.categories.performance?.score ?? 0;
      runs.sort((a, b) => score(a) - score(b));
      lhr = runs[Math.floor(runs.length / 2)]!;
      performanceScores = runs.map((r) => Math.round(score(r) * 100)).join(', ');
    } catch (err) {
      // One page that could not be measured (e.g. a timeout on a busy machine) does not hide the others.
      failures++;
      console.log(`\n${p.name.padEnd(10)} NOT MEASURED: ${err instanceof Error ? err.message : String(err)}`);
      continue;
    }
    // LIGHTHOUSE_JSON_DIR=/tmp/x keeps each page's full report (the LCP element, its phases, the main-thread work).
    const jsonDir = process.env.LIGHTHOUSE_JSON_DIR;
    if (jsonDir) {
      mkdirSync(jsonDir, { recursive: true });
      const file = `${desktop ? 'desktop' : 'mobile'}-${p.name.replace(/\W/g, '') || 'auth'}.json`;
      writeFileSync(join(jsonDir, file), JSON.stringify(lhr));
    }
    const items = networkItems(lhr);
    const external = items.filter((i) => !isLoopback(i.url));
    const jsKb = items
      .filter((i) => i.resourceType === 'Script' && isLoopback(i.url))
      .reduce((sum, i) => sum + gzipKb(distFile(new URL(i.url).pathname)), 0);
    const scores = CATEGORIES.map((c) => {
      const score = Math.round((lhr.categories[c]?.score ?? 0) * 100);
      if (score < SCORE_TARGET) failures++;
      return `${c} ${score} ${mark(score >= SCORE_TARGET)}`;
    });
    console.log(`\n${p.name.padEnd(10)} ${scores.join('  ')}`);
    if (RUNS > 1) console.log(`           performance of each run: ${performanceScores}`);
    console.log(
      `           initial JS of this page (every script it loaded): ${jsKb.toFixed(1)} KB gzipped; requests ${items.length}, external ${external.length}`,
    );
    for (const e of external) console.log(`           EXTERNAL REQUEST: ${e.url}`);
    if (external.length > 0) failures++;
    for (const c of CATEGORIES) {
      const lost = lostPoints(lhr, c);
      if (lost.length > 0) console.log(`           ${c}: ${lost.slice(0, 6).join('; ')}`);
    }
    // Where a failed accessibility or best-practices audit points (an element, a console message).
    for (const c of ['accessibility', 'best-practices'] as const) {
      for (const ref of lhr.categories[c]!.auditRefs) {
        const audit = lhr.audits[ref.id]!;
        if (ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
        const items = (audit.details as { items?: DetailItem[] } | undefined)?.items ?? [];
        for (const item of items.slice(0, 3)) console.log(`           ${audit.id}: ${describeItem(item)}`);
      }
    }
    // The unscored performance audits that explain the metrics (what to change to gain them back).
    const hints = lhr.categories
      .performance!.auditRefs.filter((r) => r.weight === 0)
      .map((r) => lhr.audits[r.id]!)
      .filter((a) => a.score !== null && a.score < 0.9 && a.displayValue)
      .map((a) => `${a.id} (${a.displayValue})`);
    if (hints.length > 0) console.log(`           performance hints: ${hints.slice(0, 6).join('; ')}`);
    const m = (id: string) => lhr.audits[id]?.displayValue ?? '?';
    console.log(
      `           FCP ${m('first-contentful-paint')}, LCP ${m('largest-contentful-paint')}, TBT ${m('total-blocking-time')}, CLS ${m('cumulative-layout-shift')}, SI ${m('speed-index')}`,
    );
  }
  const initial = initialJsKb();
  const ok = initial.kb < INITIAL_JS_TARGET_KB;
  if (!ok) failures++;
  console.log(
    `\ninitial JS (index.html's script and modulepreloads, ${initial.files.length} files): ${initial.kb.toFixed(1)} KB gzipped, target < ${INITIAL_JS_TARGET_KB} KB: ${mark(ok)}`,
  );
  console.log(failures === 0 ? 'every target met' : `${failures} target(s) missed`);
} finally {
  await browser.close();
  product.child.kill('SIGTERM');
  await new Promise((ok) => product.child.once('exit', ok));
  rmSync(dataDir, { recursive: true, force: true });
}
