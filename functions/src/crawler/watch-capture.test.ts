// What the crawler records for the watch, on a real Chromium and a loopback page that is hostile about it:
// 1,500 distinct scripts written by one inline script, a 10 KB Content-Security-Policy header, inline code
// and a handler. The page's record stays within its bounds, digests are of what was served, the header is
// cut at SECURITY_HEADER_MAX_CHARS, and the run's snapshot within WATCH_LIMITS.
import { createHash } from 'node:crypto';
import { PAGE_SCRIPTS_MAX, runSnapshotOf } from '@csp/shared/watch/run-snapshot';
import { SECURITY_HEADER_MAX_CHARS } from '@csp/shared/watch/security-headers';
import { runSnapshotSchema, WATCH_LIMITS } from '@csp/shared/watch/snapshot';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrawl } from './crawl';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';
import { PAGE_URL_SCRIPTS_MAX } from './script-recorder';
import { parseCrawlState } from './state';

const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;
let sites: FixtureSites | undefined;
afterEach(async () => {
  await sites?.close();
  sites = undefined;
});

describe('watch capture', () => {
  it('bounds what a hostile page makes it record', async () => {
    const INLINE =
      "for (let i = 0; i < 1500; i++) { const s = document.createElement('script'); s.src = '/s.js?i=' + i; document.head.appendChild(s); }";
    const HANDLER = 'window.clicked = true';
    const LIB = 'window.lib = 1;';
    // A script with a 5,000-character URL that loads another: both URLs are cut, the initiator too.
    const LOADER = `/loader.js?pad=${'x'.repeat(5_000)}`;
    const csp = `default-src 'self'; script-src 'self' 'unsafe-inline' ${Array.from({ length: 450 }, (_, i) => `https://h${i}.example`).join(' ')}`;
    // Over the cut, under Node's 16 KB response-header limit (the crawler's own fetches of the site use it).
    expect(csp.length).toBeGreaterThan(SECURITY_HEADER_MAX_CHARS);
    sites = await startFixtureSites({
      mainOnly: () => ({
        '/': {
          type: 'text/html',
          headers: {
            'content-security-policy': csp,
            'x-content-type-options': 'nosniff',
            'x-other': 'kept out',
          },
          body: `<!doctype html><title>hostile</title><script src="/lib.js"></script><script src="${LOADER}"></script><script>${INLINE}</script><button onclick="${HANDLER}">go</button>`,
        },
        '/lib.js': { type: 'text/javascript', body: LIB },
        '/loader.js': {
          type: 'text/javascript',
          body: "const l = document.createElement('script'); l.src = '/s.js?from=loader'; document.head.appendChild(l);",
        },
        '/s.js': { type: 'text/javascript', body: 'void 0;' },
      }),
    });
    const origin = sites.origins.main;
    const { state: crawled } = await runCrawl({ url: `${origin}/`, maxPages: 1, crawlDelay: 0 }, null, {
      deadline: Date.now() + 120_000,
      allowPrivateTargets: true,
      rerender: false,
    });
    // What the crawl recorded survives its checkpoint (the state is parsed when a run continues).
    const state = parseCrawlState(JSON.parse(JSON.stringify(crawled)));
    expect(state.errors).toEqual([]);
    expect(state.watch).toHaveLength(1);
    const [page] = state.watch;
    expect(page?.page).toBe(`${origin}/`);
    // The security headers as served (before the crawler set the site's CSP aside), cut, and only those.
    expect(page?.headers['content-security-policy']).toBe(csp.slice(0, SECURITY_HEADER_MAX_CHARS));
    expect(page?.headers['x-content-type-options']).toBe('nosniff');
    expect(Object.keys(page?.headers ?? {}).sort()).toEqual([
      'content-security-policy',
      'x-content-type-options',
    ]);
    // 1,500 scripts asked for, PAGE_URL_SCRIPTS_MAX kept, and room left for the page's inline code.
    expect(page?.scripts.filter((s) => s.url !== null).length).toBe(PAGE_URL_SCRIPTS_MAX);
    expect(page?.scripts.length).toBeLessThanOrEqual(PAGE_SCRIPTS_MAX);
    const lib = page?.scripts.find((s) => s.url === `${origin}/lib.js`);
    expect(lib).toEqual({
      kind: 'external',
      url: `${origin}/lib.js`,
      digest: sri(LIB),
      initiator: null,
      sha256: `sha256-${createHash('sha256').update(LIB).digest('base64')}`,
      cors: false,
      integrity: false,
    });
    // Written by the page's own inline code: no script URL to name as initiator.
    const written = page?.scripts.find((s) => s.url === `${origin}/s.js?i=0`);
    expect(written).toMatchObject({ kind: 'external', initiator: null });
    const loaded = page?.scripts.find((s) => s.url === `${origin}/s.js?from=loader`);
    expect(loaded?.initiator).toBe(`${origin}${LOADER}`.slice(0, WATCH_LIMITS.urlChars));
    for (const s of page?.scripts ?? []) {
      expect(s.url?.length ?? 0).toBeLessThanOrEqual(WATCH_LIMITS.urlChars);
      expect(s.initiator?.length ?? 0).toBeLessThanOrEqual(WATCH_LIMITS.urlChars);
    }
    expect(page?.scripts).toEqual(
      expect.arrayContaining([
        { kind: 'inline', url: null, digest: sri(INLINE), initiator: null },
        { kind: 'handler', url: null, digest: sri(HANDLER), initiator: null },
      ]),
    );

    const snapshot = runSnapshotOf({
      analysisId: 'a',
      completedAt: new Date().toISOString(),
      siteOrigins: [state.origin],
      policy: {},
      pages: state.watch,
    });
    expect(runSnapshotSchema.safeParse(snapshot).success).toBe(true);
    expect(snapshot.scripts.length).toBeLessThanOrEqual(WATCH_LIMITS.scripts);
    expect(snapshot.scripts.every((s) => s.party === 'first')).toBe(true);
  }, 180_000);
});
