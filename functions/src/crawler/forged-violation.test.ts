// A page cannot write its own policy: a script that dispatches a SecurityPolicyViolationEvent it made up
// (naming any source, with the capture's own policy text and the report disposition the instrumentation
// listens for) adds nothing to what the crawl observed. Only the browser's events (isTrusted) count.
import { afterAll, describe, expect, it } from 'vitest';
import { runCrawl } from './crawl';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';
import { CAPTURE_POLICY } from './request-interception';

const FORGED = 'https://forged.example/evil.js';
let sites: FixtureSites | undefined;
afterAll(async () => {
  await sites?.close();
});

describe('violation events a page makes up', () => {
  it('are not observations', { timeout: 120_000 }, async () => {
    const forge = `
      for (const disposition of ['report', 'enforce']) {
        document.dispatchEvent(new SecurityPolicyViolationEvent('securitypolicyviolation', {
          blockedURI: ${JSON.stringify(FORGED)},
          documentURI: location.href,
          violatedDirective: 'script-src-elem',
          effectiveDirective: 'script-src-elem',
          originalPolicy: ${JSON.stringify(CAPTURE_POLICY)},
          disposition,
          statusCode: 200,
        }));
      }`;
    sites = await startFixtureSites({
      mainOnly: () => ({
        '/': {
          type: 'text/html',
          body: `<!doctype html><title>forged</title><script src="/app.js"></script><script>${forge}</script>`,
        },
        '/app.js': { type: 'text/javascript', body: 'window.appRan = true;' },
      }),
    });
    const { state, done } = await runCrawl(
      { url: `${sites.origins.main}/`, maxPages: 1, crawlDelay: 0 },
      null,
      {
        deadline: Date.now() + 60_000,
        allowPrivateTargets: true,
        rerender: false,
      },
    );
    expect(done).toBe(true);
    const urls = state.pages.flatMap((p) => p.observations.flatMap((o) => (o.type === 'url' ? [o.url] : [])));
    // The browser's own violation of the same page is observed (the check below is not vacuous)…
    expect(urls).toContain(`${sites.origins.main}/app.js`);
    // …the forged one is not.
    expect(urls.filter((u) => u.includes('forged.example'))).toEqual([]);
  });
});
