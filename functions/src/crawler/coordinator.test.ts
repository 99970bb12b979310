// The crawl coordinator on DynamoDB Local, with crawlers that answer what they like: the coordinator hands
// each run a fresh token (the item keeps only its digest), and decides from the analysis item, not from the
// crawler's answer, whether to free the slot, queue a continuation or retry.
import { randomBytes } from 'node:crypto';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { inProcessCrawlWriter } from '../crawl-writer/writer';
import { createLogger } from '../logger';
import { createAnalysis, getAnalysis } from '../store/analyses';
import { createDb, type Db } from '../store/db';
import { acquireRunSlot, MAX_RUNNING_ANALYSES_PER_USER } from '../store/run-slots';
import { runTokenDigest } from '../store/run-token';
import { ensureTable } from '../store/table';
import { type CoordinatorDeps, coordinateRun, type JobRunner } from './coordinator';
import type { AnalysisJob } from './job';

let db: Db;
const logger = createLogger('silent');
beforeAll(async () => {
  db = createDb({ table: `c-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
});

async function pending() {
  const userId = `u-${randomBytes(4).toString('hex')}`;
  const a = await createAnalysis(db, {
    userId,
    domainId: null,
    url: 'https://site.test/',
    crawlRequest: crawlRequestSchema.parse({ url: 'https://site.test/' }),
  });
  return { id: a.id, userId };
}

function coordinator(runJob: JobRunner) {
  const sent: { message: object; delay: number | undefined }[] = [];
  const jobs: AnalysisJob[] = [];
  const deps: CoordinatorDeps = {
    db,
    logger,
    queue: { send: async (message, options) => void sent.push({ message, delay: options.delaySeconds }) },
    runJob: (job) => {
      jobs.push(job);
      return runJob(job);
    },
  };
  return { run: (id: string) => coordinateRun(deps, id, Date.now() + 60_000), sent, jobs };
}

/** Whether the user could take all their slots now (none held by the analysis any more). */
const slotsFree = async (userId: string) => {
  for (let i = 0; i < MAX_RUNNING_ANALYSES_PER_USER; i++) {
    if (!(await acquireRunSlot(db, { userId, analysisId: `probe-${i}`, leaseUntil: Date.now() + 1_000 }))) {
      return false;
    }
  }
  return true;
};

describe('crawl coordinator', () => {
  it('gives every run a fresh token and keeps only its digest; a continuation resumes the same checkpoint', async () => {
    const { id } = await pending();
    const c = coordinator(async () => ({ outcome: 'continue', delaySeconds: 7 }));
    await c.run(id);
    const held = await getAnalysis(db, id);
    expect(held).toMatchObject({
      status: 'running',
      leaseUntil: 0,
      runId: runTokenDigest(c.jobs[0]!.runToken),
    });
    expect(JSON.stringify(held)).not.toContain(c.jobs[0]!.runToken);
    expect(c.sent).toEqual([{ message: { analysisId: id }, delay: 7 }]);
    await c.run(id);
    const [first, second] = c.jobs;
    expect(second!.runToken).not.toBe(first!.runToken);
    expect(second).toMatchObject({ resume: true, checkpointId: first!.checkpointId });
    expect(first!.resume).toBe(false);
  });

  it("does not take a crawler's word: 'finished' without a result is released and retried", async () => {
    const { id, userId } = await pending();
    const c = coordinator(async () => ({ outcome: 'finished' }));
    await expect(c.run(id)).rejects.toThrow(/without a result/);
    expect(await getAnalysis(db, id)).toMatchObject({
      status: 'running',
      leaseUntil: 0,
      lastError: expect.stringMatching(/without a result/),
    });
    expect(c.sent).toEqual([]);
    expect(await slotsFree(userId)).toBe(true);
  });

  it('a crawler that completed its analysis and asks to continue gets no continuation, and the slot is freed', async () => {
    const { id, userId } = await pending();
    const writer = inProcessCrawlWriter(db, logger);
    const c = coordinator(async (job) => {
      await writer.fail({ analysisId: job.analysisId, runToken: job.runToken }, [
        'No page could be crawled.',
      ]);
      return { outcome: 'continue', delaySeconds: 0 };
    });
    await c.run(id);
    expect((await getAnalysis(db, id))?.status).toBe('failed');
    expect(c.sent).toEqual([]);
    expect(await slotsFree(userId)).toBe(true);
  });

  it('releases the run and the slot when the crawler fails, so the message is delivered again', async () => {
    const { id, userId } = await pending();
    const c = coordinator(async () => {
      throw new Error('The crawler failed: Chromium crashed');
    });
    await expect(c.run(id)).rejects.toThrow(/Chromium crashed/);
    expect(await getAnalysis(db, id)).toMatchObject({
      leaseUntil: 0,
      lastError: 'The crawler failed: Chromium crashed',
    });
    expect(await slotsFree(userId)).toBe(true);
  });
});
