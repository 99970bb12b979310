// The crawl writer on DynamoDB Local, asked the way a hostile crawler would: with its own analysis' token for
// another user's analysis, with a forged token, with fields naming someone else, with oversized and
// prototype-shaped input, and after its run has ended. Only the analysis' current run's writes are taken.
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../logger';
import { getCounters } from '../store/achievements';
import { type AnalysisRecord, createAnalysis, getAnalysis } from '../store/analyses';
import { claimAnalysis } from '../store/analysis-runs';
import { createDb, type Db } from '../store/db';
import { getKnowledge, packKnowledge } from '../store/knowledge';
import { newRunToken, runTokenDigest } from '../store/run-token';
import { ensureTable } from '../store/table';
import type { CompletedRun } from './requests';
import { type CrawlWriter, handleWriterRequest, inProcessCrawlWriter } from './writer';

let db: Db;
let writer: CrawlWriter;
const logger = createLogger('silent');
beforeAll(async () => {
  db = createDb({ table: `w-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
  writer = inProcessCrawlWriter(db, logger);
});

/** A domain analysis of `userId`, claimed by a run whose token is returned (as the coordinator does). */
async function runningAnalysis(userId: string) {
  const created = await createAnalysis(db, {
    userId,
    domainId: `d-${userId}`,
    url: 'https://site.test/',
    crawlRequest: crawlRequestSchema.parse({ url: 'https://site.test/' }),
    reportUri: 'https://csp.test/api/uri-report?domain=x',
  });
  const runToken = newRunToken();
  await claimAnalysis(db, created.id, runTokenDigest(runToken), 60_000);
  return { id: created.id, run: { analysisId: created.id, runToken } };
}

const knowledgeOf = (analysisId: string) =>
  packKnowledge({
    analysisId,
    origin: 'https://site.test',
    pages: ['https://site.test/'],
    code: [
      { directive: 'script-src-elem', hash: 'sha256-abc', sample: 'x()', pages: ['https://site.test/'] },
    ],
  }).toString('base64');

const result = (over: Partial<CompletedRun> = {}): CompletedRun => ({
  cspRules: { 'default-src': ["'self'"], 'object-src': ["'none'"] },
  strictCspRules: null,
  findings: [],
  strictFindings: [],
  resourceStats: { totalResources: 3, uniqueDomains: 1, securityIssues: 0 },
  errors: [],
  totalPages: 1,
  verification: { pagesChecked: 1, violations: 0, samples: [] },
  capture: {
    pagesCaptured: 1,
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

/** What another user's analysis looks like, to compare after the attempts. */
const unchanged = (a: AnalysisRecord | null) => ({
  status: a?.status,
  progress: a?.progress,
  errors: a?.errors,
  cspRules: a?.cspRules,
  completedAt: a?.completedAt,
});

describe('crawl writer', () => {
  it("takes X's own writes with X's token, and derives owner, domain and counters from X's item", async () => {
    const x = await runningAnalysis(`ux-${randomBytes(3).toString('hex')}`);
    expect(
      await writer.progress(x.run, {
        stage: 'crawling',
        progress: 40,
        currentPage: 'https://site.test/',
        totalPages: 3,
      }),
    ).toBe(true);
    expect(await getAnalysis(db, x.id)).toMatchObject({ progress: 40, stage: 'crawling', totalPages: 3 });
    // The crawler claims zero issues and packs knowledge under another id: the writer audits for itself and
    // files the knowledge under X.
    const claimed = result({
      cspRules: { 'script-src': ["'unsafe-inline'"] },
      resourceStats: { totalResources: 3, uniqueDomains: 1, securityIssues: 0 },
      knowledge: knowledgeOf('someone-elses-analysis'),
    });
    expect(await writer.complete(x.run, claimed)).toBe(true);
    const done = await getAnalysis(db, x.id);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    expect(done?.audit?.issues).toBeGreaterThan(0);
    expect(done?.resourceStats?.securityIssues).toBe(done?.audit?.issues);
    expect((await getKnowledge(db, x.id))?.analysisId).toBe(x.id);
    expect(await getKnowledge(db, 'someone-elses-analysis')).toBeNull();
    const counters = await getCounters(db, done!.userId);
    expect(counters.analyses).toBe(1);
    expect(counters.cleanPolicies ?? 0).toBe(0);
  });

  it("refuses every write to another user's analysis Y made with X's token, and Y stays as it was", async () => {
    const x = await runningAnalysis(`ux-${randomBytes(3).toString('hex')}`);
    const y = await runningAnalysis(`uy-${randomBytes(3).toString('hex')}`);
    const before = unchanged(await getAnalysis(db, y.id));
    const onY = { analysisId: y.id, runToken: x.run.runToken };
    expect(
      await writer.progress(onY, { progress: 99, currentPage: 'https://evil.test/', totalPages: 1 }),
    ).toBe(false);
    expect(await writer.fail(onY, ['hijacked'])).toBe(false);
    expect(await writer.complete(onY, result({ knowledge: knowledgeOf(y.id) }))).toBe(false);
    const after = await getAnalysis(db, y.id);
    expect(unchanged(after)).toEqual(before);
    expect(after?.status).toBe('running');
    expect(await getKnowledge(db, y.id)).toBeNull();
    expect(await getCounters(db, after!.userId)).toEqual({});
  });

  it('refuses a forged token, and a token of a run that has ended', async () => {
    const x = await runningAnalysis(`ux-${randomBytes(3).toString('hex')}`);
    const forged = { analysisId: x.id, runToken: newRunToken() };
    expect(await writer.progress(forged, { progress: 50, currentPage: null, totalPages: 1 })).toBe(false);
    expect(await writer.complete(forged, result())).toBe(false);
    expect(await writer.fail(forged, ['forged'])).toBe(false);
    expect((await getAnalysis(db, x.id))?.status).toBe('running');

    // A new run (a continuation, a takeover) gets a new token: the old one stops working.
    const next = newRunToken();
    await claimAnalysis(db, x.id, runTokenDigest(next), 60_000, Date.now() + 10 * 60_000);
    expect(await writer.progress(x.run, { progress: 60, currentPage: null, totalPages: 1 })).toBe(false);
    const current = { analysisId: x.id, runToken: next };
    expect(await writer.fail(current, ['No page could be crawled.'])).toBe(true);
    // Finished: the token of the run that failed it no longer writes anything.
    expect(await writer.progress(current, { progress: 70, currentPage: null, totalPages: 1 })).toBe(false);
    expect(await writer.complete(current, result())).toBe(false);
    expect(await getAnalysis(db, x.id)).toMatchObject({
      status: 'failed',
      errors: ['No page could be crawled.'],
    });
  });

  it('counts a completed analysis once, however often its run repeats the completion', async () => {
    const x = await runningAnalysis(`ux-${randomBytes(3).toString('hex')}`);
    expect(await writer.complete(x.run, result())).toBe(true);
    expect(await writer.complete(x.run, result())).toBe(false);
    const { userId } = (await getAnalysis(db, x.id))!;
    expect((await getCounters(db, userId)).analyses).toBe(1);
  });

  it('refuses, with a reason and without a write, requests that name someone or exceed the bounds', async () => {
    const x = await runningAnalysis(`ux-${randomBytes(3).toString('hex')}`);
    const asked = (request: unknown) => handleWriterRequest(db, logger, request);
    const base = { op: 'complete', analysisId: x.id, runToken: x.run.runToken };
    const refusals = [
      // Fields the writer takes from the item, never from the crawler.
      { ...base, result: { ...result(), userId: 'uy' } },
      { ...base, domainId: 'd-uy', result: result() },
      // Prototype keys as directive names.
      { ...base, result: result({ cspRules: JSON.parse('{"__proto__":["x"]}') }) },
      { ...base, result: result({ cspRules: { constructor: ['x'] } }) },
      { ...base, result: result({ cspRules: { 'script-src': ['x'], 'x-unknown': ['y'] } }) },
      // Too large, and a token of the wrong shape.
      { ...base, result: result({ errors: ['x'.repeat(1001)] }) },
      { ...base, result: result({ errors: Array.from({ length: 201 }, () => 'y') }) },
      {
        ...base,
        result: result({ cspRules: { 'img-src': Array.from({ length: 70 }, () => 'z'.repeat(4000)) } }),
      },
      { ...base, result: result({ knowledge: 'k'.repeat(421 * 1024) }) },
      { ...base, runToken: 'short' },
      { op: 'delete', analysisId: x.id, runToken: x.run.runToken },
    ];
    for (const request of refusals) {
      const answer = await asked(request);
      expect(answer.ok, JSON.stringify(request).slice(0, 120)).toBe(false);
      expect(answer).toMatchObject({ message: expect.stringMatching(/Invalid request|too large/) });
    }
    expect((await getAnalysis(db, x.id))?.status).toBe('running');
    // The in-process writer turns a refusal into an error with the reason.
    await expect(writer.fail(x.run, [])).rejects.toThrow(/refused the request: Invalid request: errors/);

    // Knowledge that unpacks into a bomb is dropped; the completion itself stands.
    const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024, 32)).toString('base64');
    expect(bomb.length).toBeLessThan(420 * 1024);
    expect(await writer.complete(x.run, result({ knowledge: bomb }))).toBe(true);
    expect(await getKnowledge(db, x.id)).toBeNull();
  });
});
