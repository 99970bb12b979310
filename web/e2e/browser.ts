// One headless Chromium for a test file (or a script): @sparticuz/chromium driven by puppeteer-core.
// Its default flags turn off web security (CORS and mixed-content checks) for Lambda scraping; our tests
// must see what a user's browser sees, so those are dropped, as is --single-process (unstable here).
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

const DROPPED_FLAGS = new Set([
  '--single-process',
  '--disable-web-security',
  '--allow-running-insecure-content',
]);
const EXTRA_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** `extraFlags`: e.g. --short-reporting-delay, so the Reporting API uploads in a second, not a minute. */
export async function launchBrowser(extraFlags: string[] = []): Promise<Browser> {
  const args = [...chromium.args.filter((flag) => !DROPPED_FLAGS.has(flag)), ...EXTRA_FLAGS, ...extraFlags];
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: [...new Set(args)],
    headless: true,
    defaultViewport: { width: 1280, height: 800 },
  });
}
