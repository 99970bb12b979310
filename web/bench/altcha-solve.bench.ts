// How long the sign-in's proof-of-work takes a visitor: the real widget solving real challenges in Chromium,
// against the product as `npm start` runs it, at the configured difficulty (ALTCHA_MAX_NUMBER 1,000,000)
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
    for (let i = 0; i < RUNS; i++) {
      await page.goto(`${product.url}/auth`, { waitUntil: 'networkidle0' });
      await page.waitForSelector('altcha-widget input[type="checkbox"]');
      const started = performance.now();
      await page.click('altcha-widget input[type="checkbox"]');
      await page.waitForSelector('altcha-widget [data-state="verified"]', { timeout: 120_000 });
      times.push(performance.now() - started);
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
console.log(`\nproof-of-work solve in Chromium, ${RUNS} runs each (challenge fetch, workers, solve, verify)`);
console.log(
  `baseline  maxNumber   100,000: median ${fmt(median(baseline))}, max ${fmt(Math.max(...baseline))}`,
);
console.log(
  `configured maxNumber 1,000,000: median ${fmt(median(configured))}, max ${fmt(Math.max(...configured))}  (${(median(configured) / median(baseline)).toFixed(1)}× baseline)`,
);
