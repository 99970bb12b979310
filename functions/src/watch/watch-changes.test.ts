// Changes between runs, end to end: two real analyses of a loopback site (the API, the queue, the crawl
// handler with Chromium, the writer, DynamoDB Local) that changes between them — a first-party script's
// content, a third-party script that starts loading a fourth-party one, the CSP header dropped on a page —
// and what the second run stored and the API answers: each change named, drift from the saved configuration.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { FixtureResponse } from '../crawler/fixtures/content';
import { startFixtureSites } from '../crawler/fixtures/sites';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { perTestServers } from '../testing/per-test-servers';

const live = perTestServers();
const sri = (text: string) => `sha384-${createHash('sha384').update(text).digest('base64')}`;

describe('changes between runs', () => {
  it('the second run names the changed script, the fourth party with its initiator, the dropped header, and drift', async () => {
    const APP_V1 = 'window.app = 1;';
    const APP_V2 = 'window.app = 2; // new release';
    const site = { app: APP_V1, tag: 'window.tag = 1;', worker: 'self.v = 1;', csp: true };
    let policy = '';
    live.sites = await startFixtureSites({
      mainOnly: (o) => {
        policy = `default-src 'self'; script-src 'self' ${o.cdn} ${o.api}`;
        const page = (links: string, csp: () => boolean): FixtureResponse => {
          const response: FixtureResponse = {
            type: 'text/html',
            body: `<!doctype html><title>p</title><script src="/app.js"></script><script src="${o.cdn}/tag.js"></script><script>window.inline = 1; new Worker('/w.js')</script>${links}`,
          };
          // The headers are read at each request: a getter lets the test drop the CSP between runs.
          Object.defineProperty(response, 'headers', {
            get: () => ({
              'x-frame-options': 'DENY',
              ...(csp() ? { 'content-security-policy': policy } : {}),
            }),
          });
          return response;
        };
        return {
          '/': page('<a href="/b">b</a>', () => true),
          '/b': page('', () => site.csp),
          '/app.js': { type: 'text/javascript', body: () => site.app },
          '/w.js': { type: 'text/javascript', body: () => site.worker },
        };
      },
      extraRoutes: () => ({
        cdn: { '/tag.js': { type: 'text/javascript', body: () => site.tag } },
        api: { '/pixel.js': { type: 'text/javascript', body: 'window.pixel = 1;' } },
      }),
    });
    const { origins } = live.sites;
    live.server = await startTestServer({
      crawlHandler: (deps) => loopbackCrawlHandler(deps, live.blobDir, { crawlOptions: { rerender: false } }),
    });
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const domain = await (
      await client.post('/api/domains', { name: 'Watched', url: `${origins.main}/` })
    ).json();
    const analyse = async () => {
      const res = await client.post('/api/csp-analyses', {
        domainId: domain.id,
        crawlRequest: { crawlDelay: 0, maxPages: 5 },
      });
      expect(res.status).toBe(201);
      const { id } = await res.json();
      await s.queue.idle();
      const { analysis } = await (await client.get(`/api/csp/analyze/${id}`)).json();
      expect(analysis.status).toBe('completed');
      return id as string;
    };

    const first = await analyse();
    // A first run has nothing to compare with: stored, not listed.
    expect((await (await client.get(`/api/csp/analyze/${first}/changes`)).json()).run).toMatchObject({
      previousAnalysisId: null,
      changes: null,
      // No configuration saved yet: nothing to drift from.
      counts: { drift: null },
    });
    expect((await (await client.get(`/api/domains/${domain.id}/changes`)).json()).runs).toEqual([]);

    // The saved configuration is the policy the site serves.
    const saved = await client.post('/api/csp-configurations', {
      domainId: domain.id,
      name: 'Live',
      baseAnalysisId: first,
      cspRules: { 'default-src': ["'self'"], 'script-src': ["'self'", origins.cdn, origins.api] },
    });
    expect(saved.status, await saved.clone().text()).toBe(201);

    site.app = APP_V2;
    site.worker = 'self.v = 2;';
    site.tag = `var s = document.createElement('script'); s.src = '${origins.api}/pixel.js'; document.head.appendChild(s);`;
    site.csp = false;
    const second = await analyse();

    const timeline = await (await client.get(`/api/domains/${domain.id}/changes`)).json();
    expect(timeline.runs.map((r: { analysisId: string }) => r.analysisId)).toEqual([second]);
    expect(timeline.nextCursor).toBeNull();
    const { run } = await (await client.get(`/api/csp/analyze/${second}/changes`)).json();
    expect(run).toEqual(timeline.runs[0]);
    expect(run.previousAnalysisId).toBe(first);
    const { scripts, headers } = run.changes;

    // The first-party script's content changed (the digests are those of the bodies served), and so did
    // the third party's.
    const changed = new Map(scripts.changed.map((c: { after: { key: string } }) => [c.after.key, c]));
    expect([...changed.keys()].sort()).toEqual(
      [`${origins.main}/app.js`, `${origins.cdn}/tag.js`, `${origins.main}/w.js`].sort(),
    );
    expect(changed.get(`${origins.main}/app.js`)).toEqual({
      before: expect.objectContaining({ digest: sri(APP_V1), party: 'first', pageCount: 2 }),
      after: expect.objectContaining({ digest: sri(APP_V2), party: 'first', pageCount: 2 }),
    });
    // A worker's script is read from the worker's own target.
    expect(changed.get(`${origins.main}/w.js`)).toEqual({
      before: expect.objectContaining({ kind: 'worker', digest: sri('self.v = 1;'), party: 'first' }),
      after: expect.objectContaining({ kind: 'worker', digest: sri('self.v = 2;'), party: 'first' }),
    });
    expect(changed.get(`${origins.cdn}/tag.js`)).toMatchObject({
      after: { party: 'third', initiator: null },
    });
    // The third party's script now loads a fourth party, named with its initiator.
    expect(scripts.added).toEqual([
      expect.objectContaining({
        key: `${origins.api}/pixel.js`,
        kind: 'external',
        party: 'fourth',
        initiator: `${origins.cdn}/tag.js`,
        digest: sri('window.pixel = 1;'),
        pageCount: 2,
      }),
    ]);
    expect(scripts.removed).toEqual([]);
    // The CSP header dropped on /b, only there; X-Frame-Options unchanged.
    expect(headers).toEqual([
      {
        header: 'content-security-policy',
        change: 'removed',
        before: policy,
        after: null,
        pages: [`${origins.main}/b`],
      },
    ]);
    // Drift: / serves the saved policy, /b none.
    expect(run.drift).toMatchObject({
      state: 'differs',
      header: 'content-security-policy',
      variants: [{ served: null, pages: [`${origins.main}/b`] }],
    });
    expect(run.counts).toMatchObject({
      scriptsAdded: 1,
      scriptsChanged: 3,
      scriptsRemoved: 0,
      headerChanges: 1,
      drift: 'differs',
    });

    // Someone else's domain and analysis: 404, nothing said.
    const other = (await registeredClient(s.url)).client;
    expect((await other.get(`/api/domains/${domain.id}/changes`)).status).toBe(404);
    expect((await other.get(`/api/csp/analyze/${second}/changes`)).status).toBe(404);
    expect(
      (await client.get(`/api/domains/${domain.id}/changes?cursor=${encodeURIComponent('RUN#x')}`)).status,
    ).toBe(400);
  }, 240_000);
});
