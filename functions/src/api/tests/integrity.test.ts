// The integrity download over HTTP on DynamoDB Local: a crawl's proposal, handed over by the crawl writer as a
// crawler run does, is kept on the analysis (the analysis answer carries it) and downloaded by its owner as
// the tags per page template, every URL the site chose escaped (a read token too); anyone else gets a 404, a
// signed-out caller 401, an analysis still running a 409 that says why; the writer refuses a proposal beyond
// its bounds.
import { randomBytes } from 'node:crypto';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { SRI_LIMITS, type SubresourceIntegrity } from '@csp/shared/schemas/subresource-integrity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletedRun } from '../../crawl-writer/requests';
import { handleWriterRequest, inProcessCrawlWriter } from '../../crawl-writer/writer';
import type { LocalServer } from '../../local/server';
import { createLogger } from '../../logger';
import { createAnalysis, getAnalysis } from '../../store/analyses';
import { claimAnalysis } from '../../store/analysis-runs';
import { releaseDomainRun } from '../../store/domain-run-guard';
import { newRunToken, runTokenDigest } from '../../store/run-token';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { packSnapshot } from '../../watch/snapshot-pack';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const logger = createLogger('silent');
const site = 'https://site.test';
const LIB = 'https://cdn.test/lib@1.2.3/lib.js';
// A URL the crawled site chose, made to break out of an attribute and out of a comment.
const HOSTILE = 'https://tags.test/t.js?a="><script>alert(1)</script>--><!--';

const proposal: SubresourceIntegrity = {
  resources: [
    {
      kind: 'script',
      url: LIB,
      sha384: 'sha384-AAAA',
      ready: true,
      crossorigin: 'anonymous',
      reasons: [],
      pageCount: 3,
    },
    {
      kind: 'stylesheet',
      url: `${site}/a.0e5c7a9f1b.css`,
      sha384: 'sha384-BBBB',
      ready: true,
      crossorigin: null,
      reasons: [],
      pageCount: 2,
    },
    {
      kind: 'script',
      url: HOSTILE,
      sha384: 'sha384-CCCC',
      ready: false,
      crossorigin: 'anonymous',
      reasons: ['no-version'],
      pageCount: 1,
    },
  ],
  resourceCount: 3,
  templates: [
    { page: `${site}/`, pageCount: 2, resources: [0, 1, 2] },
    { page: `${site}/blog`, pageCount: 1, resources: [0] },
  ],
  templateCount: 2,
};

const result = (over: Partial<CompletedRun> = {}): CompletedRun => ({
  cspRules: { 'default-src': ["'self'"] },
  strictCspRules: null,
  findings: [],
  strictFindings: [],
  resourceStats: { totalResources: 2, uniqueDomains: 1, securityIssues: 0 },
  errors: [],
  totalPages: 3,
  verification: { pagesChecked: 1, violations: 0, samples: [] },
  capture: {
    pagesCaptured: 3,
    pagesFailed: 0,
    urlsFailed: 0,
    pagesIncomplete: 0,
    incomplete: [],
    interactionObservations: 0,
    interactionSamples: [],
    writesAnswered: 0,
    navigationsBlocked: 0,
    pagesRerendered: 0,
    unstableInline: [],
    interactionMs: 0,
    rerenderMs: 0,
  },
  budget: { target: 'header', limit: 4096, length: 30, fits: true },
  needsAttention: false,
  knowledge: null,
  ...over,
});

async function runningAnalysis(userId: string, domainId: string | null = null) {
  const created = await createAnalysis(server.deps.db, {
    userId,
    domainId,
    url: `${site}/`,
    crawlRequest: crawlRequestSchema.parse({ url: `${site}/` }),
  });
  // Runs of one domain one after the other, as its guard lets them.
  if (domainId) await releaseDomainRun(server.deps.db, domainId, created.id);
  const runToken = newRunToken();
  await claimAnalysis(server.deps.db, created.id, runTokenDigest(runToken), 60_000);
  return { id: created.id, run: { analysisId: created.id, runToken } };
}

const download = (client: HttpClient, id: string) => client.get(`/api/csp/analyze/${id}/integrity`);

describe('the integrity download', () => {
  it('gives the owner the tags per page template, escaped; others get 404, signed out 401', async () => {
    const owner = await registeredClient(server.url);
    const x = await runningAnalysis(owner.user.id);
    // Still running: nothing to download yet, and the answer says why.
    const early = await download(owner.client, x.id);
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual({
      message: 'The integrity proposal comes with the completed analysis',
    });

    const writer = inProcessCrawlWriter(server.deps.db, logger);
    expect(await writer.complete(x.run, result({ subresourceIntegrity: proposal }))).toBe(true);
    const shown = await (await owner.client.get(`/api/csp/analyze/${x.id}`)).json();
    expect(shown.analysis.subresourceIntegrity).toEqual(proposal);

    const res = await download(owner.client, x.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="integrity-site.test-${x.id}.html"`,
    );
    const body = await res.text();
    const lines = body.split('\n');
    const first = lines.indexOf('<!-- Template 1: https://site.test/ and 1 more page -->');
    expect(first).toBeGreaterThan(0);
    expect(lines.slice(first + 1, first + 4)).toEqual([
      `<script src="${LIB}" integrity="sha384-AAAA" crossorigin="anonymous"></script>`,
      `<link rel="stylesheet" href="${site}/a.0e5c7a9f1b.css" integrity="sha384-BBBB">`,
      '<!-- No SRI for https://tags.test/t.js?a=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;--&gt;&lt;!--: ' +
        'The URL has no version: the vendor can change the file at this address and SRI would then block it -->',
    ]);
    expect(lines.slice(first + 4, first + 7)).toEqual([
      '',
      '<!-- Template 2: https://site.test/blog -->',
      `<script src="${LIB}" integrity="sha384-AAAA" crossorigin="anonymous"></script>`,
    ]);
    expect(body).not.toContain('<script>');

    // A pipeline's read token downloads it too; a token without the read scope is refused.
    const tokenWith = async (scopes: string[]) =>
      (await (await owner.client.post('/api/user/api-tokens', { name: 'ci', scopes })).json())
        .token as string;
    const pipeline = new HttpClient(server.url, null);
    const path = `/api/csp/analyze/${x.id}/integrity`;
    const read = await pipeline.get(path, { authorization: `Bearer ${await tokenWith(['read'])}` });
    expect(read.status).toBe(200);
    expect(await read.text()).toBe(body);
    const writeOnly = await pipeline.get(path, {
      authorization: `Bearer ${await tokenWith(['analyses:write'])}`,
    });
    expect(writeOnly.status).toBe(403);

    const stranger = await registeredClient(server.url);
    const other = await download(stranger.client, x.id);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: 'Analysis not found' });
    expect((await download(new HttpClient(server.url), x.id)).status).toBe(401);
    expect((await download(owner.client, `nope${randomBytes(4).toString('hex')}`)).status).toBe(404);
  });

  it('refuses a proposal beyond its bounds and writes nothing', async () => {
    const owner = await registeredClient(server.url);
    const x = await runningAnalysis(owner.user.id);
    const [lib] = proposal.resources;
    const tooMany = { ...proposal, resources: Array(SRI_LIMITS.resources + 1).fill(lib) };
    const longUrl = {
      ...proposal,
      resources: [{ ...lib, url: `${LIB}?${'x'.repeat(SRI_LIMITS.urlChars)}` }],
    };
    const strayIndex = { ...proposal, templates: [{ page: `${site}/`, pageCount: 1, resources: [7] }] };
    for (const bad of [tooMany, longUrl, strayIndex]) {
      const answer = await handleWriterRequest(server.deps.db, logger, {
        op: 'complete',
        ...x.run,
        result: result({ subresourceIntegrity: bad as never }),
      });
      expect(answer.ok).toBe(false);
    }
    expect((await getAnalysis(server.deps.db, x.id))?.status).toBe('running');
  });
});

describe("a domain's runs", () => {
  it('take back the proposal for a script whose content differed in an earlier run', async () => {
    const owner = await registeredClient(server.url);
    const domain = await (await owner.client.post('/api/domains', { name: 'Site', url: `${site}/` })).json();
    const writer = inProcessCrawlWriter(server.deps.db, logger);
    const run = async (digest: string, at: string) => {
      const x = await runningAnalysis(owner.user.id, domain.id);
      const watch = packSnapshot({
        analysisId: x.id,
        completedAt: at,
        scripts: [
          {
            key: LIB,
            kind: 'external',
            url: LIB,
            digest,
            party: 'third',
            initiator: null,
            pages: [`${site}/`],
            pageCount: 1,
          },
        ],
        policy: {},
        headers: [],
      }).toString('base64');
      const [lib, ...rest] = proposal.resources;
      const mine = { ...proposal, resources: [{ ...lib!, sha384: digest }, ...rest] };
      expect(await writer.complete(x.run, result({ watch, subresourceIntegrity: mine }))).toBe(true);
      return (await getAnalysis(server.deps.db, x.id))?.subresourceIntegrity?.resources[0];
    };
    // The first run: one content known, ready. The second serves other bytes at the same versioned URL.
    expect(await run('sha384-AAAA', '2026-01-01T00:00:00.000Z')).toMatchObject({ ready: true });
    expect(await run('sha384-ZZZZ', '2026-01-02T00:00:00.000Z')).toMatchObject({
      url: LIB,
      ready: false,
      sha384: null,
      reasons: ['content-differs'],
    });
  });
});
