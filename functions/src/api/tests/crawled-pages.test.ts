// 'Crawled pages' over HTTP on DynamoDB Local: a completed crawl's list, handed over by the crawl writer as a
// crawler run does, is read by the analysis' owner only (anyone else: 404, signed out: 401), lists a URL
// that answered 404 and one that gave no answer as such, and goes with its analysis.
import { randomBytes } from 'node:crypto';
import { summarizeCrawledPages } from '@csp/shared/analyses/crawled-pages';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { CRAWLED_PAGES_LIMITS, crawledPagesSchema } from '@csp/shared/schemas/crawled-pages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletedRun } from '../../crawl-writer/requests';
import { handleWriterRequest, inProcessCrawlWriter } from '../../crawl-writer/writer';
import type { LocalServer } from '../../local/server';
import { createLogger } from '../../logger';
import { createAnalysis, deleteAnalysisCascade } from '../../store/analyses';
import { claimAnalysis } from '../../store/analysis-runs';
import { getCrawledPages } from '../../store/crawled-pages';
import { newRunToken, runTokenDigest } from '../../store/run-token';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const logger = createLogger('silent');
const site = 'https://site.test';

const crawled = summarizeCrawledPages(
  [
    {
      url: `${site}/`,
      finalUrl: `${site}/`,
      status: 200,
      observations: [
        { type: 'url', directive: 'img-src', url: 'https://img.test/logo.png', page: `${site}/` },
        {
          type: 'inline',
          directive: 'script-src-elem',
          hash: 'sha256-abc',
          sample: 'go()',
          page: `${site}/`,
        },
      ],
    },
    { url: `${site}/missing`, finalUrl: `${site}/missing`, status: 404, observations: [] },
  ],
  [{ url: `${site}/down`, reason: 'net::ERR_CONNECTION_REFUSED' }],
);

const result = (over: Partial<CompletedRun> = {}): CompletedRun => ({
  cspRules: { 'default-src': ["'self'"], 'object-src': ["'none'"] },
  strictCspRules: null,
  findings: [],
  strictFindings: [],
  resourceStats: { totalResources: 2, uniqueDomains: 1, securityIssues: 0 },
  errors: [`${site}/missing: HTTP 404`],
  totalPages: 2,
  verification: { pagesChecked: 1, violations: 0, samples: [] },
  capture: {
    pagesCaptured: 2,
    pagesFailed: 1,
    urlsFailed: 1,
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
  budget: { target: 'header', limit: 4096, length: 60, fits: true },
  needsAttention: false,
  knowledge: null,
  ...over,
});

/** A standalone analysis of `userId`, claimed by a run (as the coordinator does). */
async function runningAnalysis(userId: string) {
  const created = await createAnalysis(server.deps.db, {
    userId,
    domainId: null,
    url: `${site}/`,
    crawlRequest: crawlRequestSchema.parse({ url: `${site}/` }),
  });
  const runToken = newRunToken();
  await claimAnalysis(server.deps.db, created.id, runTokenDigest(runToken), 60_000);
  return { id: created.id, run: { analysisId: created.id, runToken } };
}

const pagesOf = (client: HttpClient, id: string) => client.get(`/api/csp/analyze/${id}/pages`);

describe('crawled pages', () => {
  it('the owner reads every URL tried, with the 404 and the failure listed as such; others get 404', async () => {
    const owner = await registeredClient(server.url);
    const x = await runningAnalysis(owner.user.id);
    const writer = inProcessCrawlWriter(server.deps.db, logger);
    expect(await writer.complete(x.run, result({ crawledPages: crawled }))).toBe(true);

    const res = await pagesOf(owner.client, x.id);
    expect(res.status).toBe(200);
    const body = await res.json();
    const list = crawledPagesSchema.parse(body.crawledPages);
    expect(list.pages.map((p) => [p.url, p.status, p.failure ?? null])).toEqual([
      [`${site}/down`, 0, 'net::ERR_CONNECTION_REFUSED'],
      [`${site}/missing`, 404, null],
      [`${site}/`, 200, null],
    ]);
    const home = list.pages[2];
    expect(home?.loaded.map((i) => list.resources[i]?.value).sort()).toEqual([
      "'sha256-abc'",
      'https://img.test/logo.png',
    ]);

    const stranger = await registeredClient(server.url);
    const other = await pagesOf(stranger.client, x.id);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: 'Analysis not found' });
    expect((await pagesOf(new HttpClient(server.url), x.id)).status).toBe(401);
    expect((await pagesOf(owner.client, `nope${randomBytes(4).toString('hex')}`)).status).toBe(404);
  });

  it('answers null for an analysis whose crawl has not completed', async () => {
    const owner = await registeredClient(server.url);
    const x = await runningAnalysis(owner.user.id);
    const res = await pagesOf(owner.client, x.id);
    expect(res.status).toBe(200);
    expect((await res.json()).crawledPages).toBeNull();
  });

  it('refuses a list beyond its bounds and writes nothing', async () => {
    const owner = await registeredClient(server.url);
    const x = await runningAnalysis(owner.user.id);
    const tooLong = {
      ...crawled,
      pages: [{ ...crawled.pages[2], loaded: Array(CRAWLED_PAGES_LIMITS.loadedPerPage + 1).fill(0) }],
    };
    const answer = await handleWriterRequest(server.deps.db, logger, {
      op: 'complete',
      ...x.run,
      result: result({ crawledPages: tooLong as never }),
    });
    expect(answer.ok).toBe(false);
    expect(await getCrawledPages(server.deps.db, x.id)).toBeNull();
  });

  it('goes when its analysis is deleted', async () => {
    const owner = await registeredClient(server.url);
    const x = await runningAnalysis(owner.user.id);
    await inProcessCrawlWriter(server.deps.db, logger).complete(x.run, result({ crawledPages: crawled }));
    expect(await getCrawledPages(server.deps.db, x.id)).not.toBeNull();
    await deleteAnalysisCascade(server.deps.db, { id: x.id, domainId: null });
    expect(await getCrawledPages(server.deps.db, x.id)).toBeNull();
  });
});
