// Firefox, the second engine of self-verification, where it is installed (Debian's `firefox-esr` locally and
// in CI), driven by puppeteer-core over WebDriver BiDi. It runs behind the same SSRF proxy as Chromium, with
// every way Firefox has of reaching the network by itself (DNS prefetch, speculative connections, DNS over
// HTTPS, WebRTC) turned off, so the proxy stays the only place its traffic leaves from.
// In AWS the crawler stays Chromium-only: the crawler Lambda has no Firefox (Firefox ESR is 295 MB unpacked
// before its libraries, above what a zip-packaged Lambda may hold); what Firefox does differently reaches
// AWS analyses through the engine table the generator reads instead.
import { accessSync, constants } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumEnvironment } from './browser';
import { launchWithRetry } from './launch-retry';

/** Where Debian and most distributions install Firefox (ESR first: it is what CI installs). */
export const FIREFOX_LOCATIONS = ['/usr/bin/firefox-esr', '/usr/bin/firefox'] as const;

/** The second engine verification uses, or why there is none. */
export type SecondEngine = { executablePath: string } | { unavailable: string };

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Firefox from FIREFOX_PATH when set, else from the usual locations. */
export function findFirefox(configured: string | undefined, exists = isExecutable): SecondEngine {
  if (configured) {
    return exists(configured)
      ? { executablePath: configured }
      : { unavailable: `FIREFOX_PATH (${configured}) is not an executable file` };
  }
  const found = FIREFOX_LOCATIONS.find((path) => exists(path));
  return found
    ? { executablePath: found }
    : { unavailable: 'Firefox is not installed on this machine (install firefox-esr or set FIREFOX_PATH)' };
}

/** Preferences that send all of Firefox's traffic through the proxy at `proxyUrl` and nowhere else (pure). */
export function firefoxPreferences(proxyUrl: string): Record<string, unknown> {
  const { hostname, port } = new URL(proxyUrl);
  return {
    'network.proxy.type': 1,
    'network.proxy.http': hostname,
    'network.proxy.http_port': Number(port),
    'network.proxy.ssl': hostname,
    'network.proxy.ssl_port': Number(port),
    'network.proxy.share_proxy_settings': true,
    'network.proxy.no_proxies_on': '',
    // Firefox never proxies loopback unless told to: the guard must see those requests too.
    'network.proxy.allow_hijacking_localhost': true,
    // Names are resolved by the proxy only (it pins the checked address), never by Firefox.
    'network.trr.mode': 5,
    'network.dns.disablePrefetch': true,
    'network.dns.disablePrefetchFromHTTPS': true,
    'network.predictor.enabled': false,
    'network.prefetch-next': false,
    'network.http.speculative-parallel-limit': 0,
    'network.http.http3.enable': false,
    // WebRTC could send UDP straight to an IP literal, around the proxy.
    'media.peerconnection.enabled': false,
  };
}

/**
 * Starts Firefox behind the proxy. The analysis' custom user agent is not applied: Firefox's own is what
 * makes a site take its Firefox path, which is what this engine is here to see.
 */
export function launchFirefox(executablePath: string, proxyUrl: string): Promise<Browser> {
  return launchWithRetry(() =>
    puppeteer.launch({
      browser: 'firefox',
      executablePath,
      env: chromiumEnvironment(process.env),
      extraPrefsFirefox: firefoxPreferences(proxyUrl),
      headless: true,
      defaultViewport: { width: 1280, height: 900 },
      protocolTimeout: 60_000,
    }),
  );
}
