// One Chromium per crawl, started from @sparticuz/chromium's binary but with our own flags: the package's
// defaults are tuned for Lambda single-process speed and switch off web security and site isolation, which
// change what a page loads and so what the policy must allow. All traffic goes through the SSRF proxy.
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { launchWithRetry } from './launch-retry';

/** Flags that would make the crawled browser load things differently from a real visitor's browser. */
export const DROPPED_FLAGS = [
  '--single-process',
  '--disable-web-security',
  '--disable-site-isolation-trials',
  '--allow-running-insecure-content',
];
/** Features that must not be disabled (site isolation decides which frames are out of process). */
const KEPT_FEATURES = new Set(['IsolateOrigins', 'site-per-process']);

export interface BrowserFlagsOptions {
  /** `http://127.0.0.1:PORT` of the filtering proxy. */
  proxyUrl: string;
  /** Custom user agent of the crawl request; empty keeps Chromium's own. */
  userAgent?: string;
}

/** Our Chromium command line, derived from the package's (pure, tested). */
export function browserFlags(baseArgs: readonly string[], options: BrowserFlagsOptions): string[] {
  const proxyHost = new URL(options.proxyUrl).hostname;
  const args: string[] = [];
  // The crawler navigates each tab through hundreds of pages: a back/forward cache would keep every one of
  // them alive in memory, and it does not change what a first visit loads.
  const disabled: string[] = [];
  for (const arg of baseArgs) {
    if (DROPPED_FLAGS.includes(arg)) continue;
    if (arg.startsWith('--disable-features=')) {
      disabled.push(
        ...arg
          .slice('--disable-features='.length)
          .split(',')
          .filter((feature) => !KEPT_FEATURES.has(feature)),
      );
      continue;
    }
    if (
      arg.startsWith('--headless') ||
      arg.startsWith('--proxy-') ||
      arg.startsWith('--host-resolver-rules')
    ) {
      continue;
    }
    args.push(arg);
  }
  args.push(`--disable-features=${[...disabled, 'BackForwardCache'].join(',')}`);
  args.push(
    // No traffic of Chromium's own (updates, sync, safe browsing lists…): only the pages' requests.
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    '--disable-sync',
    '--disable-quic',
    // Compositing on the CPU rather than on SwiftShader's emulated GPU: pages still get WebGL (what they
    // can detect, and so what they load, is unchanged), and the browser process's CPU falls by a quarter
    // (bench:crawl, 200 pages: 8.1–8.3 → 9.7–9.9 pages/s).
    '--disable-gpu-compositing',
    // SSRF: every request goes through the proxy, Chromium resolves no name itself (so it cannot be
    // pointed at an internal address by DNS), and loopback is not silently bypassed.
    `--proxy-server=${options.proxyUrl}`,
    `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${proxyHost}`,
    '--proxy-bypass-list=<-loopback>',
    // WebRTC could otherwise send UDP straight to an IP literal, around the proxy.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  );
  if (options.userAgent) args.push(`--user-agent=${options.userAgent}`);
  return args;
}

/**
 * The only variables Chromium gets from our environment: where it lives and finds its libraries and fonts,
 * and the locale. Never the process' own (in Lambda: the role's AWS credentials, the function's settings).
 */
export const CHROMIUM_ENV_NAMES = [
  'HOME',
  'PATH',
  'TMPDIR',
  'LD_LIBRARY_PATH',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
] as const;

/** The environment Chromium starts with: the allowed names of `env`, nothing else. */
export function chromiumEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const scrubbed: Record<string, string> = {};
  for (const name of CHROMIUM_ENV_NAMES) {
    const value = env[name];
    if (value !== undefined) scrubbed[name] = value;
  }
  return scrubbed;
}

export async function launchBrowser(options: BrowserFlagsOptions): Promise<Browser> {
  // Read first: unpacking the binary sets HOME, FONTCONFIG_PATH and LD_LIBRARY_PATH for it.
  const executablePath = await chromium.executablePath();
  return launchWithRetry(() =>
    puppeteer.launch({
      executablePath,
      env: chromiumEnvironment(process.env),
      args: browserFlags(chromium.args, options),
      headless: true,
      defaultViewport: { width: 1280, height: 900 },
      protocolTimeout: 60_000,
    }),
  );
}

/** Closes politely, then kills the process if Chromium hangs (a leaked browser outlives the Lambda run). */
export async function closeBrowser(browser: Browser): Promise<void> {
  const process = browser.process();
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 5_000).unref());
  const closed = await Promise.race([browser.close().then(() => 'closed' as const), timer]).catch(
    () => 'error' as const,
  );
  if (closed !== 'closed' && process && process.exitCode === null) process.kill('SIGKILL');
}
