// Clearing a domain's reports runs in the background in every runtime: the API writes the job and sends a
// clear message on the report queue, and the report consumer works through it, sending the message again
// while there is more. Against the running product (HTTP, DynamoDB Local, the local durable queue) with a
// short clearing step, so one clear spans several messages: a clear nobody polls finishes; the consumer
// goes on in a message of its own and never fails one to get it back; a clear message and report messages
// share a batch, each failure handed back alone; a message that cannot be sent changes nothing (503); a
// broken chain of messages is resumed by clearing again; deleting a flooded domain or its owner answers at
// once and the reports go afterwards.

import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { ReportClearJob, ReportClearMessage, ReportMessage } from '@csp/shared/schemas/report';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../local/server';
import { createLogger } from '../logger';
import type { DurableQueue } from '../queue/queue';
import { batchPut } from '../store/batch';
import { deleteDomainCascade, getDomain } from '../store/domains';
import {
  domainReportsPartition,
  reportClearKey,
  reportCountPartition,
  reportGuardPartition,
  reportPolicyPartition,
  reportStatsPartition,
} from '../store/keys';
import { queryPartition, queryTable } from '../store/query';
import { getReportClear, requestReportClear } from '../store/report-clear';
import { updateUserFields } from '../store/users';
import { registeredClient, startTestServer } from '../testing/api-server';
import { floodCounterItems, until } from '../testing/reports';
import { sqsRecord } from '../testing/sqs-events';
import { createReportConsumer } from './consumer';

const STEP_MS = 300;
let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer({ env: { REPORT_CLEAR_STEP_MS: String(STEP_MS) } });
});
afterAll(async () => {
  await server?.close();
});

const SITE = 'https://www.example.com';
const silent = createLogger('silent');

async function ownerWithDomain() {
  const owner = await registeredClient(server.url);
  const res = await owner.client.post('/api/domains', { name: 'Shop', url: SITE, isActive: true });
  expect(res.status).toBe(201);
  return { ...owner, domain: (await res.json()) as { id: string; uuid: string } };
}

/** Reports through the real endpoint and consumer: raw reports, a policy, stats and guards. */
async function sendReports(uuid: string, n: number) {
  const res = await fetch(`${server.url}/api/uri-report?domain=${uuid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/reports+json' },
    body: JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        type: 'csp-violation',
        age: 0,
        url: `${SITE}/`,
        body: {
          documentURL: `${SITE}/`,
          effectiveDirective: 'img-src',
          blockedURL: `https://real-${i}.example/p.gif`,
          originalPolicy: "img-src 'self'",
          disposition: 'enforce',
        },
      })),
    ),
  });
  expect(res.status).toBe(204);
  await server.reportQueue.idle();
}

/** A flood's counters, written straight into the table (what 10,000s of distinct reports leave). */
async function seedCounters(domainId: string, n: number) {
  const items = floodCounterItems(domainId, n);
  for (let i = 0; i < items.length; i += 4000) {
    await Promise.all(
      [0, 1, 2, 3].map((k) => batchPut(server.deps.db, items.slice(i + k * 1000, i + (k + 1) * 1000))),
    );
  }
}

/** Every item a domain's reports left: raw reports, policies, counters, stats, guards. */
async function leftovers(domainId: string) {
  const db = server.deps.db;
  const partitions = [
    reportPolicyPartition(domainId),
    reportStatsPartition(domainId),
    reportGuardPartition(domainId),
    ...Array.from({ length: REPORT_LIMITS.counterShards }, (_, s) => reportCountPartition(domainId, s)),
  ];
  const counts = await Promise.all([
    queryPartition(db, { index: 'gsi2', partition: domainReportsPartition(domainId), projection: 'pk' }),
    ...partitions.map((pk) => queryTable(db, pk)),
  ]);
  return counts.reduce((n, items) => n + items.length, 0);
}

/** Reads the job from the table only (a poll of the panel would also advance it). */
const jobOf = (domainId: string) => getReportClear(server.deps.db, domainId);

/** A queue that keeps what is sent to it, to hand it to the consumer by hand. */
function heldQueue() {
  const sent: ReportClearMessage[] = [];
  const queue: DurableQueue<ReportClearMessage> = {
    sendAll: async (messages) => void sent.push(...messages),
  };
  return { sent, queue };
}

describe('clearing in the background', () => {
  it('a clear accepted with 202 finishes with nobody polling: the consumer alone does it', async () => {
    const { client, domain } = await ownerWithDomain();
    await sendReports(domain.uuid, 20);
    await seedCounters(domain.id, 3000);
    const before = await leftovers(domain.id);
    expect(before).toBeGreaterThan(3020);

    const res = await client.delete(`/api/domains/${domain.id}/uri-reports`);
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ state: 'running', deleted: 0 });
    // Nobody polls the clear route: only the queue's consumer runs, a step of STEP_MS per message.
    const job = await until(
      () => jobOf(domain.id),
      (j) => j?.state === 'done',
      120_000,
    );
    expect(job).toMatchObject({ state: 'done', phase: 'done', deleted: before });
    expect(await leftovers(domain.id)).toBe(0);
    // The panel's view of it afterwards, and a new clear is a new job.
    const polled = (await (await client.get(`/api/domains/${domain.id}/uri-reports/clear`)).json()) as {
      job: ReportClearJob;
    };
    expect(polled.job).toMatchObject({ state: 'done', deleted: before });
    const again = await client.delete(`/api/domains/${domain.id}/uri-reports`);
    expect(again.status).toBe(202);
    await until(
      () => jobOf(domain.id),
      (j) => j?.state === 'done' && j.deleted === 0,
    );
  }, 180_000);

  it('a clear larger than one step goes on in a message sent again, never in a failed one, and finishes', async () => {
    const { domain } = await ownerWithDomain();
    await seedCounters(domain.id, 4000);
    const { sent, queue } = heldQueue();
    await requestReportClear({ ...server.deps, reportQueue: queue }, domain.id);
    expect(sent).toHaveLength(1);
    const first = sent[0]!;
    expect(first).toMatchObject({ kind: 'clear', domainId: domain.id });
    const consume = createReportConsumer({
      db: server.deps.db,
      logger: silent,
      clear: { queue, stepMs: 100 },
    });

    let invocations = 0;
    const progress: number[] = [];
    while (sent.length > 0 && invocations < 500) {
      const message = sent.shift()!;
      // Each time the same job's message again, as it was.
      expect(message).toEqual(first);
      const out = await consume({ Records: [sqsRecord(JSON.stringify(message))] });
      expect(out).toEqual({ batchItemFailures: [] });
      invocations += 1;
      progress.push((await jobOf(domain.id))!.deleted);
    }
    const job = await jobOf(domain.id);
    expect(job).toMatchObject({ state: 'done', deleted: 4000 });
    expect(invocations).toBeGreaterThan(1);
    expect(progress.every((d, i) => i === 0 || progress[i - 1]! <= d)).toBe(true);
    expect(await leftovers(domain.id)).toBe(0);
    console.log(`clear of 4,000 items in ${invocations} invocations of 100 ms`);

    // A late duplicate of the finished job's message does nothing, also to a new job, and is not sent on.
    await seedCounters(domain.id, 10);
    await requestReportClear({ ...server.deps, reportQueue: queue }, domain.id);
    const second = sent[0]!;
    expect(second.jobId).not.toBe(first.jobId);
    expect(await consume({ Records: [sqsRecord(JSON.stringify(first))] })).toEqual({ batchItemFailures: [] });
    expect(sent).toEqual([second]);
    expect(await jobOf(domain.id)).toMatchObject({ state: 'running', deleted: 0 });
    for (let i = 0; sent.length > 0 && i < 100; i++) {
      await consume({ Records: [sqsRecord(JSON.stringify(sent.shift()))] });
    }
    expect(await jobOf(domain.id)).toMatchObject({ state: 'done', deleted: 10 });
  }, 180_000);

  it('a batch with a clear message and report messages: both handled, a failing one handed back alone', async () => {
    const counted = await ownerWithDomain();
    const cleared = await ownerWithDomain();
    await seedCounters(cleared.domain.id, 300);
    const reportMessage = (domainId: string): ReportMessage => ({
      domainId,
      domainUuid: counted.domain.uuid,
      receivedAt: new Date().toISOString(),
      clientIp: '192.0.2.0',
      reports: [
        {
          documentUri: `${SITE}/`,
          blockedUri: 'https://cdn.batch.example/a.png',
          violatedDirective: 'img-src',
          reportedAt: new Date().toISOString(),
        },
      ],
      dropped: {},
    });

    // A report message DynamoDB refuses (a partition key over its limit) beside a clear and a good report.
    const { sent, queue } = heldQueue();
    await requestReportClear({ ...server.deps, reportQueue: queue }, cleared.domain.id);
    const consume = createReportConsumer({
      db: server.deps.db,
      logger: silent,
      clear: { queue, stepMs: 60_000 },
    });
    const clear = sqsRecord(JSON.stringify(sent.shift()));
    const good = sqsRecord(JSON.stringify(reportMessage(counted.domain.id)));
    const refused = sqsRecord(JSON.stringify(reportMessage('x'.repeat(3000))));
    expect(await consume({ Records: [good, clear, refused] })).toEqual({
      batchItemFailures: [{ itemIdentifier: refused.messageId }],
    });
    expect(await jobOf(cleared.domain.id)).toMatchObject({ state: 'done', deleted: 300 });
    const list = await (await counted.client.get(`/api/domains/${counted.domain.id}/uri-reports`)).json();
    expect(list.total).toBe(1);

    // A clear message whose next message cannot be sent (the queue refuses) is handed back alone: the
    // reports beside it count, and its job keeps what progress it made.
    await seedCounters(cleared.domain.id, 6000);
    const broken: DurableQueue<ReportClearMessage> = {
      sendAll: async () => {
        throw new Error('queue unavailable');
      },
    };
    await requestReportClear({ ...server.deps, reportQueue: queue }, cleared.domain.id);
    const stuck = createReportConsumer({
      db: server.deps.db,
      logger: silent,
      clear: { queue: broken, stepMs: 200 },
    });
    const clear2 = sqsRecord(JSON.stringify(sent.shift()));
    const good2 = sqsRecord(JSON.stringify(reportMessage(counted.domain.id)));
    expect(await stuck({ Records: [clear2, good2] })).toEqual({
      batchItemFailures: [{ itemIdentifier: clear2.messageId }],
    });
    const list2 = await (await counted.client.get(`/api/domains/${counted.domain.id}/uri-reports`)).json();
    expect(list2.total).toBe(2);
    const job = await jobOf(cleared.domain.id);
    expect(job).toMatchObject({ state: 'running' });
    expect(job!.deleted).toBeLessThan(6000);
    // Delivered again (as SQS does), it goes on where it stopped.
    expect(await consume({ Records: [clear2] })).toEqual({ batchItemFailures: [] });
    expect(await jobOf(cleared.domain.id)).toMatchObject({ state: 'done', deleted: 6000 });
  }, 180_000);

  it('a clear whose message cannot be sent answers 503 and changes nothing', async () => {
    const { domain } = await ownerWithDomain();
    await seedCounters(domain.id, 10);
    const broken: DurableQueue<ReportClearMessage> = {
      sendAll: async () => {
        throw new Error('queue unavailable');
      },
    };
    await expect(
      requestReportClear({ ...server.deps, reportQueue: broken }, domain.id),
    ).rejects.toMatchObject({ status: 503 });
    expect(await jobOf(domain.id)).toBeNull();
    expect(await leftovers(domain.id)).toBe(10);
    // The domain's deletion neither: it is still there, with its reports.
    const full = (await getDomain(server.deps.db, domain.id))!;
    await expect(deleteDomainCascade({ ...server.deps, reportQueue: broken }, full)).rejects.toMatchObject({
      status: 503,
    });
    expect(await getDomain(server.deps.db, domain.id)).toMatchObject({ id: domain.id });
    expect(await jobOf(domain.id)).toBeNull();
    expect(await leftovers(domain.id)).toBe(10);
  });

  it('a clear whose chain of messages broke is sent again when the owner clears again a minute later', async () => {
    const { client, domain } = await ownerWithDomain();
    await seedCounters(domain.id, 500);
    await requestReportClear({ ...server.deps, reportQueue: heldQueue().queue }, domain.id);
    const db = server.deps.db;
    const quiet = (ms: number) =>
      db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: reportClearKey(domain.id),
          UpdateExpression: 'SET chainAt = :t',
          ExpressionAttributeValues: { ':t': Date.now() - ms },
        }),
      );
    // Quiet for less than a minute: clearing again answers the running job and sends nothing.
    await quiet(30_000);
    expect((await client.delete(`/api/domains/${domain.id}/uri-reports`)).status).toBe(202);
    await server.reportQueue.idle();
    expect(await jobOf(domain.id)).toMatchObject({ state: 'running', deleted: 0 });
    // Quiet for over a minute: a new message, and the consumer finishes it with nobody polling.
    await quiet(61_000);
    expect((await client.delete(`/api/domains/${domain.id}/uri-reports`)).status).toBe(202);
    expect(
      await until(
        () => jobOf(domain.id),
        (j) => j?.state === 'done',
        60_000,
      ),
    ).toMatchObject({
      deleted: 500,
    });
  });

  it('deleting a domain flooded with reports answers at once; the reports go afterwards, via the job', async () => {
    const { client, domain } = await ownerWithDomain();
    await sendReports(domain.uuid, 20);
    const n = 20_000;
    await seedCounters(domain.id, n);
    const before = await leftovers(domain.id);

    const started = performance.now();
    const res = await client.delete(`/api/domains/${domain.id}`);
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    console.log(`deleting a domain with ${before} report items answered in ${ms.toFixed(0)} ms`);
    // Deleting 20,000 items in the request took far longer than this on this machine.
    expect(ms).toBeLessThan(5000);
    const answered = performance.now();
    expect(await jobOf(domain.id)).toMatchObject({ state: 'running' });
    // What the owner sees is gone at once. A report sent now may still be accepted (the endpoint knows a
    // domain for a minute after it is gone) but is not counted: nothing of it is left below.
    expect((await client.get(`/api/domains/${domain.id}/analyses`)).status).toBe(404);
    expect((await client.get(`/api/domains/${domain.id}/uri-reports`)).status).toBe(404);
    await sendReports(domain.uuid, 5).catch(() => undefined);
    // The job clears what the domain left, though the domain no longer exists, and then itself.
    const job = await until(
      () => jobOf(domain.id),
      (j) => j === null,
      180_000,
    );
    console.log(`…cleared in the background in ${(performance.now() - answered).toFixed(0)} ms`);
    expect(job).toBeNull();
    await server.reportQueue.idle();
    expect(await leftovers(domain.id)).toBe(0);
  }, 300_000);

  it("deleting a user answers at once; each of their domains' reports go afterwards, via a job each", async () => {
    const admin = await registeredClient(server.url);
    await updateUserFields(server.deps.db, admin.user.id, { role: 'admin' });
    const owner = await ownerWithDomain();
    const second = await owner.client.post('/api/domains', {
      name: 'Blog',
      url: `${SITE}/blog`,
      isActive: true,
    });
    const blog = (await second.json()) as { id: string; uuid: string };
    await seedCounters(owner.domain.id, 5000);
    await sendReports(blog.uuid, 5);

    const started = performance.now();
    const res = await admin.client.delete(`/api/admin/users/${owner.user.id}`);
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(ms).toBeLessThan(5000);
    for (const id of [owner.domain.id, blog.id]) {
      // Each job clears its domain's reports, then deletes itself: nothing mentions the domain afterwards.
      expect(
        await until(
          () => jobOf(id),
          (j) => j === null,
          120_000,
        ),
      ).toBeNull();
      expect(await leftovers(id)).toBe(0);
    }
  }, 300_000);
});
