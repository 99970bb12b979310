// The batch consumer against DynamoDB Local: exact counts with sampled raw reports, the double-delivery
// guard, and batch writes that retry what DynamoDB leaves unprocessed.
import { randomBytes, randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { hourOf } from '@csp/shared/reports/group';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { NormalizedReport, ReportMessage } from '@csp/shared/schemas/report';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../logger';
import { batchPut } from '../store/batch';
import { createDb, type Db } from '../store/db';
import { createDomain } from '../store/domains';
import { windowCounts, windowStats } from '../store/report-count-windows';
import { listDomainReports } from '../store/reports';
import { ensureTable } from '../store/table';
import { sqsRecord } from '../testing/sqs-events';
import { createReportConsumer } from './consumer';

let db: Db;
beforeAll(async () => {
  db = createDb({ table: `r-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
});

const SITE = 'https://www.example.com';
const now = () => new Date().toISOString();

function report(blocked: string, over: Partial<NormalizedReport> = {}): NormalizedReport {
  return {
    documentUri: `${SITE}/`,
    blockedUri: blocked,
    violatedDirective: 'img-src',
    reportedAt: now(),
    ...over,
  };
}

const record = (
  message: ReportMessage,
  opts: { id?: string; receiveCount?: number; sentAt?: number } = {},
): SQSRecord =>
  sqsRecord(JSON.stringify(message), {
    ...(opts.id ? { messageId: opts.id } : {}),
    ...(opts.receiveCount ? { receives: opts.receiveCount } : {}),
    ...(opts.sentAt !== undefined ? { sentAt: opts.sentAt } : {}),
  });

const message = (domainId: string, reports: NormalizedReport[], dropped = {}): ReportMessage => ({
  domainId,
  domainUuid: randomUUID(),
  receivedAt: now(),
  clientIp: '192.0.2.0',
  reports,
  dropped,
});

async function totals(domainId: string) {
  const hour = hourOf(now());
  const [counts, stats] = await Promise.all([
    windowCounts(db, domainId, hour, hour),
    windowStats(db, domainId, hour, hour),
  ]);
  const listed = await listDomainReports(db, domainId, { sinceMs: Date.now() - 3600_000, limit: 200 });
  return { counts: counts.groups, overCap: counts.overCap, stats: stats[0], listed: listed.reports };
}

/** The consumer counts reports of existing domains only. */
const newDomain = async () =>
  (await createDomain(db, `u-${randomUUID()}`, { name: 'Shop', url: `${SITE}/`, isActive: true })).id;

describe('the report consumer', () => {
  it('counts every report exactly and keeps raw copies only up to the budgets', async () => {
    const domainId = await newDomain();
    const consume = createReportConsumer({ db, logger: createLogger('silent') });
    const n = 60;
    const records = Array.from({ length: n }, () =>
      record(message(domainId, [report('https://cdn.example.net/a.png')])),
    );
    records.push(record(message(domainId, [report('https://other.example.org/b.png')], { extension: 4 })));
    expect(await consume({ Records: records })).toEqual({ batchItemFailures: [] });
    const t = await totals(domainId);
    expect(t.counts.find((c) => c.source === 'https://cdn.example.net')?.count).toBe(n);
    expect(t.counts.find((c) => c.source === 'https://other.example.org')?.count).toBe(1);
    expect(t.stats).toMatchObject({ received: n + 1, dropped: { extension: 4 } });
    // The first rawPerGroupHour of the hot group are kept, plus roughly 1 in sampleOneIn of the rest.
    const hot = t.listed.filter((r) => r.blockedUri.includes('cdn.example.net')).length;
    expect(hot).toBeGreaterThanOrEqual(REPORT_LIMITS.rawPerGroupHour);
    expect(hot).toBeLessThan(REPORT_LIMITS.rawPerGroupHour + 10);
    expect(t.stats!.stored).toBe(t.listed.length);
  });

  it('does not count a batch twice when it is delivered again, also when a redelivery races the first', async () => {
    const domainId = await newDomain();
    const consume = createReportConsumer({ db, logger: createLogger('silent') });
    const sentAt = Date.now();
    const event: SQSEvent = {
      Records: [
        record(
          message(domainId, [report('https://a.example.org/1.png'), report('https://a.example.org/2.png')]),
          { id: 'm1', sentAt },
        ),
        record(message(domainId, [report('https://b.example.org/1.png')], { offsite: 2 }), {
          id: 'm2',
          sentAt,
        }),
      ],
    };
    await consume(event);
    const again: SQSEvent = {
      Records: event.Records.map((r) => ({
        ...r,
        attributes: { ...r.attributes, ApproximateReceiveCount: '2' },
      })),
    };
    // Delivered again (the first delivery's success was lost), twice at once, and once more with a new message.
    const m3 = record(message(domainId, [report('https://c.example.org/1.png')]), { id: 'm3', sentAt });
    await Promise.all([consume(again), consume(again), consume({ Records: [...again.Records, m3] })]);
    const t = await totals(domainId);
    expect(Object.fromEntries(t.counts.map((c) => [c.source, c.count]))).toEqual({
      'https://a.example.org': 2,
      'https://b.example.org': 1,
      'https://c.example.org': 1,
    });
    expect(t.stats).toMatchObject({ received: 4, stored: 4, dropped: { offsite: 2 } });
    expect(t.listed).toHaveLength(4);
  });

  it('retries the items a batch write leaves unprocessed', async () => {
    // DynamoDB may process part of a BatchWriteItem: here the first answer of each call leaves all but one
    // item unprocessed, as a throttled table does.
    let calls = 0;
    let cut = 0;
    const send = db.doc.send.bind(db.doc);
    const flaky: Db = {
      table: db.table,
      doc: {
        send: async (command: unknown) => {
          if (command instanceof BatchWriteCommand) {
            calls += 1;
            const items = command.input.RequestItems![db.table]!;
            if (items.length > 1 && cut < 2) {
              cut += 1;
              await send(new BatchWriteCommand({ RequestItems: { [db.table]: items.slice(0, 1) } }));
              return { UnprocessedItems: { [db.table]: items.slice(1) } };
            }
          }
          return send(command as never);
        },
      } as unknown as Db['doc'],
    };
    const items = Array.from({ length: 30 }, (_, i) => ({ pk: `BATCHTEST#${i}`, sk: 'X', n: i }));
    await batchPut(flaky, items);
    expect(cut).toBe(2);
    expect(calls).toBe(4);
    const { batchGet } = await import('../store/batch');
    expect(
      (
        await batchGet(
          db,
          items.map(({ pk, sk }) => ({ pk, sk })),
        )
      ).length,
    ).toBe(30);
  });
});
