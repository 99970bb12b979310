// The watch's cost in table writes (issue: a re-crawl of an unchanged 50-page site does no more writes than
// a first analysis of it), counted on the crawl writer on DynamoDB Local as the crawler asks it: each
// completed analysis of a domain adds one watched-run item, first run or not, and a redelivered completion
// adds nothing (the change log is append-only).
import { randomBytes } from 'node:crypto';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { type PageWatch, runSnapshotOf } from '@csp/shared/watch/run-snapshot';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { CompletedRun } from '../crawl-writer/requests';
import { inProcessCrawlWriter } from '../crawl-writer/writer';
import { createLogger } from '../logger';
import { createAnalysis } from '../store/analyses';
import { claimAnalysis } from '../store/analysis-runs';
import { createDb, type Db } from '../store/db';
import { newRunToken, runTokenDigest } from '../store/run-token';
import { ensureTable } from '../store/table';
import { getWatchRun, listWatchRuns, putWatchRun } from '../store/watch-snapshots';
import { recordingDb, type Touch } from '../testing/key-recorder';
import { packSnapshot } from './snapshot-pack';

let db: Db;
beforeAll(async () => {
  db = createDb({ table: `ww-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
});

const SITE = 'https://shop.test';
/** A 50-page site: a bundle and a tag on every page, a page script each, the usual headers. */
const pages: PageWatch[] = Array.from({ length: 50 }, (_, i) => ({
  page: `${SITE}/p/${i}`,
  headers: {
    'content-security-policy': "default-src 'self'; script-src 'self' https://tags.test",
    'strict-transport-security': 'max-age=63072000',
    'x-frame-options': 'DENY',
  },
  scripts: [
    { kind: 'external', url: `${SITE}/bundle.js`, digest: 'sha384-bundle', initiator: null },
    { kind: 'external', url: 'https://tags.test/t.js', digest: 'sha384-tag', initiator: null },
    { kind: 'external', url: `${SITE}/p/${i}.js`, digest: `sha384-p${i}`, initiator: null },
    { kind: 'inline', url: null, digest: `sha384-inline${i % 5}`, initiator: null },
  ],
}));

const result = (): CompletedRun => ({
  cspRules: { 'default-src': ["'self'"], 'script-src': ["'self'", 'https://tags.test'] },
  strictCspRules: null,
  findings: [],
  strictFindings: [],
  resourceStats: { totalResources: 3, uniqueDomains: 2, securityIssues: 0 },
  errors: [],
  totalPages: 50,
  verification: { pagesChecked: 50, violations: 0, samples: [] },
  capture: {
    pagesCaptured: 50,
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
  watch: packSnapshot(
    runSnapshotOf({
      analysisId: 'whatever-the-crawler-says',
      completedAt: '2000-01-01T00:00:00.000Z',
      siteOrigins: [SITE],
      policy: { 'default-src': ["'self'"], 'script-src': ["'self'", 'https://tags.test'] },
      pages,
    }),
  ).toString('base64'),
});

const WRITES = /^(Put|Update|Delete|BatchWrite|TransactWrite)Command$/;

/** Completes a new analysis of `domainId` through the writer; the writes it made (one per item). */
async function completeOne(userId: string, domainId: string) {
  const created = await createAnalysis(db, {
    userId,
    domainId,
    url: `${SITE}/`,
    crawlRequest: crawlRequestSchema.parse({ url: `${SITE}/` }),
  });
  const runToken = newRunToken();
  await claimAnalysis(db, created.id, runTokenDigest(runToken), 60_000);
  const touched: Touch[] = [];
  const writer = inProcessCrawlWriter(recordingDb(db, touched).db, createLogger('silent'));
  const run = { analysisId: created.id, runToken };
  expect(await writer.complete(run, result())).toBe(true);
  return { id: created.id, run, writer, writes: touched.filter((t) => WRITES.test(t.command)) };
}

describe('watch writes', () => {
  it('a re-crawl of an unchanged 50-page site writes no more than its first analysis', async () => {
    const userId = `u-${randomBytes(3).toString('hex')}`;
    const domainId = `d-${randomBytes(3).toString('hex')}`;
    const first = await completeOne(userId, domainId);
    const second = await completeOne(userId, domainId);
    const watchWrites = (w: Touch[]) => w.filter((t) => t.partition.startsWith('WATCHRUN#'));
    expect(watchWrites(first.writes)).toHaveLength(1);
    expect(watchWrites(second.writes)).toHaveLength(1);
    expect(second.writes.length).toBeLessThanOrEqual(first.writes.length);
    console.log(`writes: first analysis ${first.writes.length}, unchanged re-crawl ${second.writes.length}`);

    // The writer's own word for the run: its id and time, not the crawler's.
    const stored = await getWatchRun(db, domainId, second.id);
    expect(stored).toMatchObject({
      analysisId: second.id,
      previousAnalysisId: first.id,
      counts: { scriptsAdded: 0, scriptsChanged: 0, scriptsRemoved: 0, headerChanges: 0, policyChanges: 0 },
      changes: { scripts: { added: [], changed: [], removed: [] }, headers: [], policy: [] },
    });
    expect(stored?.completedAt).not.toBe('2000-01-01T00:00:00.000Z');
    expect((await listWatchRuns(db, domainId, { limit: 10 })).runs.map((r) => r.analysisId)).toEqual([
      second.id,
    ]);

    // A completion delivered again writes nothing more to the watch, and the stored run is as it was.
    const again: Touch[] = [];
    const writer = inProcessCrawlWriter(recordingDb(db, again).db, createLogger('silent'));
    expect(await writer.complete(second.run, result())).toBe(false);
    expect(again.filter((t) => WRITES.test(t.command))).toEqual([]);
    expect(await getWatchRun(db, domainId, second.id)).toEqual(stored);
    // And the item itself is never rewritten, whoever asks.
    const rewrite = await putWatchRun(db, {
      analysisId: second.id,
      domainId,
      completedAt: '2030-01-01T00:00:00.000Z',
      previousAnalysisId: null,
      counts: { ...stored!.counts, scriptsAdded: 99 },
      snapshot: { analysisId: second.id, completedAt: '', scripts: [], policy: {}, headers: [] },
      changes: null,
      drift: null,
    });
    expect(rewrite).toBe(false);
    expect(await getWatchRun(db, domainId, second.id)).toEqual(stored);
  });

  it('pages the timeline newest first with a cursor', async () => {
    const userId = `u-${randomBytes(3).toString('hex')}`;
    const domainId = `d-${randomBytes(3).toString('hex')}`;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await completeOne(userId, domainId)).id);
    const page1 = await listWatchRuns(db, domainId, { limit: 2 });
    expect(page1.runs.map((r) => r.analysisId)).toEqual([ids[3], ids[2]]);
    expect(page1.next).toBe(ids[2]);
    const page2 = await listWatchRuns(db, domainId, { limit: 2, before: page1.next ?? undefined });
    // The first run has nothing to compare with: not in the timeline.
    expect(page2.runs.map((r) => r.analysisId)).toEqual([ids[1]]);
    expect(page2.next).toBeNull();
  });
});
