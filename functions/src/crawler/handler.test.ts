// The crawl queue's handler, end to end: the real API, the in-process queue with SQS's contract, DynamoDB
// Local, Chromium and loopback fixture sites. Continuations, duplicate deliveries and the dead-letter path.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../blobs';
import type { LocalServer } from '../local/server';
import { getAnalysis } from '../store/analyses';
import { getKnowledge } from '../store/knowledge';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { perTestServers } from '../testing/per-test-servers';
import { sqsRecord } from '../testing/sqs-events';
import { startFixtureSites } from './fixtures/sites';
import type { CrawlHandlerDeps } from './handler';
import { FINISH_RESERVE_MS } from './run-analysis';

const live = perTestServers();

const page = (title: string, links: string[], extra = '') => ({
  type: 'text/html',
  body: `<!doctype html><title>${title}</title><link rel="stylesheet" href="/site.css">${extra}${links
    .map((l) => `<a href="${l}">${l}</a>`)
    .join('')}`,
});

async function smallSite(slowPaths?: Record<string, number>) {
  live.sites = await startFixtureSites({
    ...(slowPaths ? { slowPaths } : {}),
    mainOnly: (o) => ({
      '/': page('home', ['/a', '/b', '/c'], `<script src="${o.cdn}/lib.js"></script>`),
      '/a': page('a', ['/d'], '<img src="/logo.png">'),
      '/b': page('b', ['/d'], '<script>document.title += "!"</script>'),
      '/c': page('c', []),
      '/d': page('d', []),
      '/site.css': { type: 'text/css', body: 'body{margin:0}' },
      '/logo.png': { type: 'image/png', body: Buffer.from('89504e470d0a1a0a', 'hex') },
    }),
  });
  return live.sites;
}

/** Chromium processes still running with this user agent on their command line. */
function browsersWith(userAgent: string): string {
  try {
    return execFileSync('pgrep', ['-f', userAgent], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

const SLOW = { '/a': 1200, '/b': 1200, '/c': 1200, '/d': 1200 };

type Overrides = Partial<Omit<CrawlHandlerDeps, 'db' | 'queue' | 'logger'>>;

async function serverWithCrawler(overrides: Overrides = {}) {
  live.server = await startTestServer({
    crawlHandler: (deps) => loopbackCrawlHandler(deps, live.blobDir, overrides),
  });
  return live.server;
}

/** A handler on the server's table and queue that the test calls itself (not through the queue). */
function directHandler(s: LocalServer, crawlOptions: CrawlHandlerDeps['crawlOptions'] = {}) {
  return loopbackCrawlHandler(s.deps, live.blobDir, { crawlOptions });
}

/** One SQS record for an analysis, as the queue delivers it. */
const sqsEvent = (messageId: string, analysisId: string): SQSEvent => ({
  Records: [sqsRecord(JSON.stringify({ analysisId }), { messageId, sentAt: 0 })],
});

async function startAnalysis(s: LocalServer, url: string, crawlRequest: Record<string, unknown> = {}) {
  const { client } = await registeredClient(s.url);
  const domain = await (await client.post('/api/domains', { name: 'Fixture', url })).json();
  const res = await client.post('/api/csp-analyses', {
    domainId: domain.id,
    crawlRequest: { crawlDelay: 0, ...crawlRequest },
  });
  expect(res.status).toBe(201);
  return { client, id: (await res.json()).id as string };
}

describe('crawl handler', () => {
  it('crawls, generates, verifies and completes an analysis started through the API', async () => {
    const site = await smallSite();
    const s = await serverWithCrawler();
    const userAgent = `CspCrawlTest/${randomUUID()}`;
    const { client, id } = await startAnalysis(s, `${site.origins.main}/`, { maxPages: 10, userAgent });
    await s.queue.idle();
    const { analysis } = await (await client.get(`/api/csp/analyze/${id}`)).json();
    expect(analysis).toMatchObject({ status: 'completed', progress: 100, totalPages: 5, stage: null });
    // The custom user agent was sent, and no browser outlived the crawl and its verification.
    expect(site.requests.filter((r) => r.origin === 'main').every((r) => r.userAgent === userAgent)).toBe(
      true,
    );
    expect(browsersWith(userAgent)).toBe('');
    expect(analysis.cspRules['script-src']).toContain(site.origins.cdn);
    expect(analysis.cspRules['script-src'].some((s: string) => s.startsWith("'sha256-"))).toBe(true);
    expect(analysis.strictCspRules['script-src']).toContain("'strict-dynamic'");
    expect(analysis.verification).toMatchObject({ pagesChecked: 5, violations: 0, remaining: [] });
    expect(analysis.needsAttention).toBe(false);
    // The crawl said what it did: every page captured fully, the sample loaded again for stability.
    expect(analysis.capture).toMatchObject({ pagesCaptured: 5, pagesIncomplete: 0, pagesRerendered: 5 });
    expect(analysis.budget).toMatchObject({ target: 'header', limit: 4096, fits: true });
    expect(analysis.resourceStats.totalResources).toBeGreaterThan(0);
    expect(analysis.completedAt).toBeTruthy();
    // The policies report to the product, for this domain; the Reporting API group too.
    const { uuid } = await (await client.get(`/api/domains/${analysis.domainId}`)).json();
    const reportUri = `${s.url}/api/uri-report?domain=${uuid}`;
    for (const rules of [analysis.cspRules, analysis.strictCspRules]) {
      expect(rules['report-uri']).toEqual([reportUri]);
      expect(rules['report-to']).toEqual(['csp-endpoint']);
    }
    // What the crawl saw is kept for judging the domain's reports.
    const knowledge = await getKnowledge(s.deps.db, id);
    expect(knowledge?.pages.length).toBe(5);
    expect(knowledge?.code.some((c) => c.directive.startsWith('script-src'))).toBe(true);
    // A completed analysis feeds the achievements: the first one, and a policy verified with 0 violations.
    const unlocked = (await (await client.get('/api/achievements')).json()).map(
      (a: { type: string }) => a.type,
    );
    expect(unlocked).toEqual(expect.arrayContaining(['first-analysis', 'verified-clean']));
    // Its audit stored with it: badge, Issues and grade from the same findings.
    expect(analysis.audit.issues).toBe(analysis.resourceStats.securityIssues);
  });

  it('continues a crawl that runs out of time in a new run, with progress kept', async () => {
    const site = await smallSite(SLOW);
    // Slow pages and a run budget so short that each run crawls about one page before it must hand over.
    const s = await serverWithCrawler({
      runBudgetMs: FINISH_RESERVE_MS + 2_500,
      crawlOptions: { pageReserveMs: 1_000, concurrency: 1, rerender: false },
    });
    const { client, id } = await startAnalysis(s, `${site.origins.main}/`, { maxPages: 10 });
    await s.queue.idle();
    const stored = await getAnalysis(s.deps.db, id);
    expect(stored?.runs).toBeGreaterThan(1);
    const { analysis } = await (await client.get(`/api/csp/analyze/${id}`)).json();
    expect(analysis).toMatchObject({ status: 'completed', totalPages: 5 });
    // Every page crawled once across all runs, then loaded once more by the self-verification.
    const pages = site.requests
      .filter((r) => r.origin === 'main' && /^\/[a-d]$/.test(r.path))
      .map((r) => r.path);
    expect(pages.sort()).toEqual(['/a', '/a', '/b', '/b', '/c', '/c', '/d', '/d']);
  });

  it('does nothing for duplicate deliveries of a message whose analysis is already done', async () => {
    const site = await smallSite();
    const s = await serverWithCrawler();
    const handler = directHandler(s);
    // Start the analysis without the server's queue delivering it, then deliver the same message twice.
    const { client, id } = await startAnalysis(s, `${site.origins.main}/`, { maxPages: 3 });
    await s.queue.idle();
    const event = (messageId: string) => sqsEvent(messageId, id);
    const before = (await getAnalysis(s.deps.db, id))?.runs ?? 0;
    const results = await Promise.all([handler(event('dup')), handler(event('dup'))]);
    expect(results).toEqual([{ batchItemFailures: [] }, { batchItemFailures: [] }]);
    // The analysis was already completed by the first delivery: neither duplicate claimed it.
    expect((await getAnalysis(s.deps.db, id))?.runs).toBe(before);
    expect((await (await client.get(`/api/csp/analyze/${id}`)).json()).analysis.status).toBe('completed');
  });

  it('fails the analysis with the reason after the last delivery (dead-letter path)', async () => {
    const site = await smallSite(SLOW);
    const broken: BlobStore = {
      put: async () => {
        throw new Error('blob store unavailable');
      },
      get: async () => null,
      delete: async () => {},
    };
    const s = await serverWithCrawler({
      blobs: broken,
      runBudgetMs: FINISH_RESERVE_MS + 2_500,
      crawlOptions: { pageReserveMs: 1_000, concurrency: 1 },
    });
    s.queue.setVisibilityTimeoutMs(50);
    const userAgent = `CspCrawlTest/${randomUUID()}`;
    const { client, id } = await startAnalysis(s, `${site.origins.main}/`, { maxPages: 10, userAgent });
    await s.queue.idle();
    const { analysis } = await (await client.get(`/api/csp/analyze/${id}`)).json();
    expect(analysis.status).toBe('failed');
    expect(browsersWith(userAgent)).toBe('');
    expect(analysis.errors.at(-1)).toMatch(/stopped after 3 failed attempts.*blob store unavailable/);
  });

  it('fails an analysis whose every page was refused, with the reason', async () => {
    const site = await smallSite();
    const s = await serverWithCrawler({ allowPrivateTargets: false });
    const before = site.requests.length;
    const { client, id } = await startAnalysis(s, `${site.origins.main}/`);
    await s.queue.idle();
    const { analysis } = await (await client.get(`/api/csp/analyze/${id}`)).json();
    expect(analysis.status).toBe('failed');
    // The first underlying reason, in the headline.
    expect(analysis.errors).toEqual([
      'No page could be crawled: Blocked request to 127.0.0.1: loopback addresses are not allowed',
    ]);
    expect(site.requests.length).toBe(before);
  });

  it('runs at most 2 analyses of one user at once: the third waits, queued, and runs after', async () => {
    const site = await smallSite(SLOW);
    // The server's own queue delivers to nothing: this test delivers the messages itself.
    live.server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
    const s = live.server;
    const handler = directHandler(s, { rerender: false });
    const { client } = await registeredClient(s.url);
    const ids: string[] = [];
    // Three domains of the one site: a domain has one analysis waiting or running at a time.
    for (let i = 0; i < 3; i++) {
      const domain = await (
        await client.post('/api/domains', { name: `Fixture ${i}`, url: `${site.origins.main}/` })
      ).json();
      const res = await client.post('/api/csp-analyses', {
        domainId: domain.id,
        crawlRequest: { crawlDelay: 0, maxPages: 3 },
      });
      ids.push((await res.json()).id);
    }
    const status = async (id: string) => (await (await client.get(`/api/csp/analyze/${id}`)).json()).analysis;
    const first = handler(sqsEvent('m1', ids[0]!));
    const second = handler(sqsEvent('m2', ids[1]!));
    // Both hold a slot once they are running.
    await expect.poll(async () => (await status(ids[1]!)).status, { timeout: 10_000 }).toBe('running');
    await expect.poll(async () => (await status(ids[0]!)).status, { timeout: 10_000 }).toBe('running');
    expect(await handler(sqsEvent('m3', ids[2]!))).toEqual({ batchItemFailures: [] });
    expect(await status(ids[2]!)).toMatchObject({ status: 'pending', stage: 'queued' });
    // Another user is not held back by this one.
    const other = await registeredClient(s.url);
    const theirs = await (
      await other.client.post('/api/domains', { name: 'Other', url: `${site.origins.main}/` })
    ).json();
    const started = await other.client.post('/api/csp-analyses', {
      domainId: theirs.id,
      crawlRequest: { crawlDelay: 0, maxPages: 1 },
    });
    const theirId = (await started.json()).id as string;
    await handler(sqsEvent('m4', theirId));
    expect((await (await other.client.get(`/api/csp/analyze/${theirId}`)).json()).analysis.status).toBe(
      'completed',
    );
    await Promise.all([first, second]);
    // A slot is free again: the queued analysis runs when its message comes back.
    await handler(sqsEvent('m3-again', ids[2]!));
    for (const id of ids) expect((await status(id)).status).toBe('completed');
  }, 180_000);
});
