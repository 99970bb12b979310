// The Trusted Types dry run on real Chromium and a loopback site: a page whose script writes innerHTML, one
// that goes through a policy of its own, one with a default policy. The crawl lists the innerHTML sink with
// its script and line and not the pages whose strings went through a policy, keeps the policy names, and
// records nothing else differently (the generated policies are those of a crawl without the dry run). Then
// an analysis started through the API stores the dry run and shows it.
import { generatePolicy } from '@csp/shared/csp/generate';
import { serializePolicy } from '@csp/shared/csp/serialize';
import { dryRunOf } from '@csp/shared/trusted-types/dry-run';
import { describe, expect, it } from 'vitest';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { perTestServers } from '../testing/per-test-servers';
import { observationKey } from './classify';
import { crawlArtifact, runCrawl } from './crawl';
import { startFixtureSites } from './fixtures/sites';
import { parseCrawlState } from './state';

const live = perTestServers();

/** The line of app.js that writes innerHTML. */
const INNER_HTML_LINE = 3;

function trustedTypesSite() {
  const html = (title: string, body: string) => ({
    type: 'text/html',
    body: `<!doctype html><title>${title}</title><div id="out"></div>${body}`,
  });
  const js = (body: string) => ({ type: 'text/javascript', body });
  return startFixtureSites({
    mainOnly: () => ({
      '/': html(
        'sink',
        '<a href="/policy">policy</a> <a href="/default">default</a><script src="/app.js"></script>',
      ),
      '/app.js': js(
        [
          '// Writes markup straight into the page: a DOM XSS sink Trusted Types would block.',
          "var out = document.getElementById('out');",
          "out.innerHTML = '<b>x</b>';",
          "document.title += ' ' + eval('1 + 1');",
        ].join('\n'),
      ),
      '/policy': html('policy', '<script src="/policy.js"></script>'),
      '/policy.js': js(
        [
          "var policy = trustedTypes.createPolicy('app', { createHTML: function (s) { return s; } });",
          "document.getElementById('out').innerHTML = policy.createHTML('<b>y</b>');",
        ].join('\n'),
      ),
      '/default': html('default', '<script src="/default.js"></script>'),
      '/default.js': js(
        [
          "trustedTypes.createPolicy('default', { createHTML: function (s) { return s; } });",
          "document.getElementById('out').innerHTML = '<i>z</i>';",
        ].join('\n'),
      ),
    }),
  });
}

describe('the Trusted Types dry run', () => {
  it('lists the innerHTML sink with its script and line, not the pages using a policy, and changes nothing else', async () => {
    live.sites = await trustedTypesSite();
    const main = live.sites.origins.main;
    const crawl = (trustedTypesDryRun: boolean) =>
      runCrawl({ url: `${main}/`, maxPages: 5, crawlDelay: 0 }, null, {
        deadline: Date.now() + 120_000,
        allowPrivateTargets: true,
        rerender: false,
        trustedTypesDryRun,
      });
    const withDryRun = await crawl(true);
    // What the crawl recorded survives its checkpoint (the state is parsed when a run continues).
    const state = parseCrawlState(JSON.parse(JSON.stringify(withDryRun.state)));
    expect(state.errors).toEqual([]);
    expect(state.pages.map((p) => new URL(p.url).pathname).sort()).toEqual(['/', '/default', '/policy']);

    const run = dryRunOf(state.trustedTypes);
    expect(run.pagesChecked).toBe(3);
    // The only sink used without a policy; eval is one too (Trusted Types guards it), on the next line.
    expect(run.sinks).toEqual([
      {
        sink: 'Element innerHTML',
        script: `${main}/app.js`,
        line: INNER_HTML_LINE,
        column: expect.any(Number),
        sample: '<b>x</b>',
        pages: [`${main}/`],
        pageCount: 1,
      },
      {
        sink: 'eval',
        script: `${main}/app.js`,
        line: INNER_HTML_LINE + 1,
        column: expect.any(Number),
        sample: '1 + 1',
        pages: [`${main}/`],
        pageCount: 1,
      },
    ]);
    expect(run.sinkCount).toBe(2);
    expect(run.readiness).toBe('default-policy');
    expect(run.policyNames.sort()).toEqual(['app', 'default']);

    // Without the dry run: the same observations on every page, so the same policies.
    const without = await crawl(false);
    expect(without.state.trustedTypes.sinks).toEqual([]);
    const keys = (s: typeof state) =>
      Object.fromEntries(s.pages.map((p) => [p.url, p.observations.map(observationKey).sort()]));
    expect(keys(state)).toEqual(keys(without.state));
    for (const mode of ['allowlist', 'strict'] as const) {
      const policy = (s: typeof state) =>
        serializePolicy(generatePolicy(crawlArtifact(s), { mode, nonce: 'trustedTypesNonce0123' }).rules);
      expect(policy(state)).toBe(policy(without.state));
      expect(policy(state)).not.toMatch(/trusted-types/);
    }
    // The pages still ran their code (report-only: the strings went through).
    expect(state.pages.find((p) => p.url === `${main}/`)?.observations.some((o) => o.type === 'eval')).toBe(
      true,
    );
  }, 300_000);

  it('is stored with the analysis and shown by the API', async () => {
    live.sites = await trustedTypesSite();
    live.server = await startTestServer({
      crawlHandler: (deps) => loopbackCrawlHandler(deps, live.blobDir, { crawlOptions: { rerender: false } }),
    });
    const { client } = await registeredClient(live.server.url);
    const url = `${live.sites.origins.main}/`;
    const domain = await (await client.post('/api/domains', { name: 'Trusted Types', url })).json();
    const res = await client.post('/api/csp-analyses', {
      domainId: domain.id,
      crawlRequest: { crawlDelay: 0, maxPages: 5 },
    });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    await live.server.queue.idle();
    const { analysis } = await (await client.get(`/api/csp/analyze/${id}`)).json();
    expect(analysis.status).toBe('completed');
    expect(analysis.trustedTypes).toMatchObject({
      readiness: 'default-policy',
      sinkCount: 2,
      pagesChecked: 3,
      sinks: [
        { sink: 'Element innerHTML', script: `${live.sites.origins.main}/app.js`, line: INNER_HTML_LINE },
        { sink: 'eval' },
      ],
    });
    expect(analysis.trustedTypes.policyNames.sort()).toEqual(['app', 'default']);
    // Not a violation of the verified policy: the policy handed out holds on every page.
    expect(analysis.verification).toMatchObject({ pagesChecked: 3, violations: 0 });
  }, 300_000);
});
