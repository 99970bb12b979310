// How long a visitor of /auth waits for the proof-of-work: from page load (navigation start) until the
// real widget, which starts by itself, shows a solved challenge in Chromium, against the product as
// `npm start` runs it, at the configured difficulty (ALTCHA_MAX_NUMBER 1,000,000)
// and, as the baseline measured in the same run, at a tenth of it. Prints medians and their ratio.
// Run: npm run build:web && npm run bench:altcha
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchBrowser } from '../e2e/browser';

const MAIN = resolve(import.meta.dirname, '../../functions/src/local/main.ts');
const RUNS = Number(process.env.RUNS ?? 15);

async function startProduct(maxNumber: number): Promise<{ url: string; child: ChildProcess; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'csp-altcha-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dir,
      ALTCHA_MAX_NUMBER: String(maxNumber),
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /running on (http:\/\/\S+)/.exec(out);
      if (m) ok({ url: m[1]!, child, dir });
    });
    child.once('exit', (code) => fail(new Error(`the product exited (${code})`)));
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

async function solveTimes(maxNumber: number): Promise<number[]> {
  const product = await startProduct(maxNumber);
  const browser = await launchBrowser();
  const times: number[] = [];
  try {
    const page = await browser.newPage();
    // The moment the widget shows verified, taken inside the page on its own clock (0 = navigation start).
    await page.evaluateOnNewDocument(() => {
      const w = window as unknown as { __solvedAt?: number };
      const observer = new MutationObserver(() => {
        if (w.__solvedAt === undefined && document.querySelector('altcha-widget [data-state="verified"]')) {
          w.__solvedAt = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true });
    });
    for (let i = 0; i < RUNS; i++) {
      // No click: the widget starts solving as soon as the form is shown.
      await page.goto(`${product.url}/auth`, { waitUntil: 'domcontentloaded' });
      await page.waitForFunction(() => (window as unknown as { __solvedAt?: number }).__solvedAt, {
        timeout: 120_000,
      });
      times.push(await page.evaluate(() => (window as unknown as { __solvedAt: number }).__solvedAt));
      process.stdout.write('.');
    }
  } finally {
    await browser.close();
    product.child.kill('SIGTERM');
    rmSync(product.dir, { recursive: true, force: true });
  }
  return times;
}

const baseline = await solveTimes(100_000);
const configured = await solveTimes(1_000_000);
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `\npage load to a solved widget in Chromium, ${RUNS} runs each (app start, challenge fetch, workers, solve)`,
);
console.log(
  `baseline  maxNumber   100,000: median ${fmt(median(baseline))}, max ${fmt(Math.max(...baseline))}`,
);
console.log(
  `configured maxNumber 1,000,000: median ${fmt(median(configured))}, max ${fmt(Math.max(...configured))}  (${(median(configured) / median(baseline)).toFixed(1)}× baseline)`,
);
