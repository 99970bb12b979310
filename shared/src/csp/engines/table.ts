// Where browser engines differ in what a CSP governs: one table, each row with the first version of each
// engine that behaves as the row says and where that fact comes from. The generator (engine-fallbacks.ts),
// the policy card (policy-engines.ts) and the report suggestions read it; nothing else spells an engine
// version. Versions are from MDN's browser-compat-data (package @mdn/browser-compat-data 8.1.9, data of
// 2026-11-12) unless the row's source says otherwise. Pure data.
import * as z from 'zod';

export const ENGINES = ['chromium', 'firefox', 'safari'] as const;
export const engineSchema = z.enum(ENGINES);
export type Engine = z.infer<typeof engineSchema>;

export const ENGINE_NAMES: Record<Engine, string> = {
  chromium: 'Chromium',
  firefox: 'Firefox',
  safari: 'Safari',
};

/** The first version of an engine that behaves as the row says; null: no released version does. */
export type Since = string | null;

export const ENGINE_FEATURES = [
  'favicon-img-src',
  'script-src-elem',
  'script-src-attr',
  'style-src-elem',
  'style-src-attr',
  'unsafe-hashes',
  'strict-dynamic',
  'wasm-unsafe-eval',
  'worker-src',
  'report-to',
  'report-uri',
  'report-sample',
  'trusted-types',
  'report-sha256',
  'integrity-policy',
  'integrity-policy-reports',
] as const;
export type EngineFeature = (typeof ENGINE_FEATURES)[number];

export interface EngineRow {
  /** What the row is about, for people. */
  readonly title: string;
  readonly since: Readonly<Record<Engine, Since>>;
  /** Where the engines differ beyond a version number, and what an older engine does instead. */
  readonly note: string;
  /** MDN browser-compat-data key(s) or spec / bug / changelog URLs. */
  readonly source: string;
}

const BCD = 'browser-compat-data http.headers.Content-Security-Policy';

export const ENGINE_TABLE: Readonly<Record<EngineFeature, EngineRow>> = {
  'favicon-img-src': {
    title: 'Favicon fetches are checked against img-src',
    // Chromium checks <link rel=icon> against img-src (the crawl sees those: headless Chromium fetches
    // them) but fetches the default /favicon.ico from the browser process, outside the page's policy, and
    // headless never fetches it. Firefox's FaviconLoader checks both against img-src.
    since: { chromium: null, firefox: '23', safari: '7' },
    note: "Firefox (and WebKit) check the site's default /favicon.ico against img-src on every page; Chromium exempts it (it checks only <link rel=icon>), so a Chromium crawl never sees it.",
    source:
      'https://github.com/getodk/central/pull/1685 (Firefox FaviconLoader img-src violation); https://github.com/firezone/firezone/issues/11247 (Chromium checks <link rel=icon>); https://github.com/w3c/webappsec-csp/issues/390; https://github.com/WebKit/WebKit/pull/40619 (WebKit /favicon.ico lookup)',
  },
  'script-src-elem': {
    title: 'script-src-elem',
    since: { chromium: '75', firefox: '108', safari: '15.4' },
    note: 'Older engines ignore it and read script-src for <script> elements.',
    source: `${BCD}.script-src-elem`,
  },
  'script-src-attr': {
    title: 'script-src-attr',
    since: { chromium: '75', firefox: '108', safari: '15.4' },
    note: 'Older engines ignore it and read script-src for event handlers.',
    source: `${BCD}.script-src-attr`,
  },
  'style-src-elem': {
    title: 'style-src-elem',
    // Safari 15.4–26.1 parsed style-src-elem but applied style-src to <style> and stylesheets.
    since: { chromium: '75', firefox: '108', safari: '26.2' },
    note: 'Safari 15.4 to 26.1 parse it but ignore it (WebKit bug 276931) and read style-src instead.',
    source: `${BCD}.style-src-elem; https://webkit.org/b/276931`,
  },
  'style-src-attr': {
    title: 'style-src-attr',
    since: { chromium: '75', firefox: '108', safari: '15.4' },
    note: 'Older engines ignore it and read style-src for style= attributes.',
    source: `${BCD}.style-src-attr`,
  },
  'unsafe-hashes': {
    title: "'unsafe-hashes'",
    since: { chromium: '69', firefox: '109', safari: '15.4' },
    note: 'Without it an engine never allows an event handler or style= attribute by its hash.',
    source: `${BCD}.unsafe-hashes`,
  },
  'strict-dynamic': {
    title: "'strict-dynamic'",
    since: { chromium: '52', firefox: '52', safari: '15.4' },
    note: "Older engines ignore it and honour the https: and 'unsafe-inline' fallback written beside it (nonce and hashes still count).",
    source: `${BCD}.strict-dynamic`,
  },
  'wasm-unsafe-eval': {
    title: "'wasm-unsafe-eval'",
    since: { chromium: '97', firefox: '102', safari: '16' },
    note: "Older engines compile WebAssembly only under 'unsafe-eval'.",
    source: `${BCD}.script-src.wasm-unsafe-eval`,
  },
  'worker-src': {
    title: 'worker-src',
    since: { chromium: '59', firefox: '58', safari: '15.5' },
    note: 'Older engines ignore it and read child-src, then default-src, for workers.',
    source: `${BCD}.worker-src`,
  },
  'report-to': {
    title: 'report-to (Reporting API)',
    since: { chromium: '70', firefox: '149', safari: '16.4' },
    note: 'Older engines send reports only to report-uri; engines with report-to ignore report-uri when both are set.',
    source: `${BCD}.report-to`,
  },
  'report-uri': {
    title: 'report-uri',
    since: { chromium: '25', firefox: '23', safari: '7' },
    note: 'Deprecated in favour of report-to, still the only way to reach older engines.',
    source: `${BCD}.report-uri`,
  },
  'report-sample': {
    title: "'report-sample'",
    since: { chromium: '59', firefox: '63', safari: '15.4' },
    note: 'Without it a report carries no code sample, so inline code cannot be matched with the crawl.',
    source: `${BCD}.report-sample`,
  },
  'trusted-types': {
    title: 'require-trusted-types-for / trusted-types',
    since: { chromium: '83', firefox: '148', safari: '26' },
    note: 'Older engines ignore both directives: DOM sinks stay unguarded there.',
    source: `${BCD}.require-trusted-types-for, ${BCD}.trusted-types`,
  },
  'report-sha256': {
    title: "'report-sha256' (csp-hash reports)",
    // Not in browser-compat-data yet. WebKit merged it in January 2025 but no Safari release is recorded as
    // shipping it, so the table claims none; Firefox has the web-platform tests only.
    since: { chromium: '133', firefox: null, safari: null },
    note: 'Engines that support it report the SHA-256 of every script the page loads (csp-hash reports; a cross-origin script only when it is fetched with CORS). Others ignore the keyword: it allows and blocks nothing.',
    source:
      'https://chromestatus.com/feature/6337535507431424 (enabled by default in Chrome 133); https://github.com/w3c/webappsec-csp/pull/693; https://github.com/WebKit/WebKit/pull/38282',
  },
  'integrity-policy': {
    title: 'Integrity-Policy / Integrity-Policy-Report-Only',
    since: { chromium: '138', firefox: '145', safari: '26' },
    note: 'Engines that support it refuse (or, report-only, report) scripts loaded without integrity metadata. Older engines ignore the header and load them.',
    source:
      'browser-compat-data http.headers.Integrity-Policy.blocked-destinations_script, http.headers.Integrity-Policy-Report-Only.blocked-destinations_script',
  },
  'integrity-policy-reports': {
    title: 'integrity-violation reports',
    // Firefox 145–148 enforce but ignore `endpoints` (violations go to the console); reports come with its
    // Reporting API (Firefox 149, see report-to). No Safari release is recorded as sending them.
    since: { chromium: '138', firefox: '149', safari: null },
    note: 'Engines before these versions apply Integrity-Policy without sending integrity-violation reports to its endpoints.',
    source:
      'browser-compat-data http.headers.Integrity-Policy (Firefox: "Reporting endpoints are ignored"), api.ReportingObserver.ReportingObserver.options_parameter.types_property.integrity-violation',
  },
};

/** Compare dotted version strings numerically ("15.4" < "15.10" < "16"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
