// One headless Chromium for a test file (or a script): @sparticuz/chromium driven by puppeteer-core.
// Its default flags turn off web security (CORS and mixed-content checks) for Lambda scraping; our tests
// must see what a user's browser sees, so those are dropped, as is --single-process (unstable here).
// Its GPU flags (SwiftShader's software GL inside the browser process) are dropped too, for Chromium's
// software compositing (--disable-gpu), as on a server without a GPU: emulating a GPU on the CPU cost the
// screens' tests most of their time (the 360 px layout test: 98 s with it, 13 s without), and with the
// machine's two cores busy it stalled a page's renderer for 30 s.
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';

const DROPPED_FLAGS = new Set([
  '--single-process',
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--in-process-gpu',
  '--use-gl=angle',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
]);
const EXTRA_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  '--disable-gpu',
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
