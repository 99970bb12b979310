// The dispatcher's Lambda entry as EventBridge Scheduler invokes it (an empty event): a due schedule's
// analysis is created on DynamoDB Local and its crawl message sent, in the owner's fair-queue group, through
// the real SQS client to a loopback SQS.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listDomainAnalyses } from '../store/analyses';
import { createDb, type Db } from '../store/db';
import { createDomain } from '../store/domains';
import { getSchedule, putSchedule } from '../store/schedules';
import { ensureTable } from '../store/table';
import { type LoopbackSqs, startLoopbackSqs } from '../testing/loopback-sqs';

const table = `t-${randomBytes(6).toString('hex')}`;
let db: Db;
let sqs: LoopbackSqs;
let handler: () => Promise<{ schedules: { started: number } | null; deliveries: number | null }>;

beforeAll(async () => {
  const endpoint = inject('dynamoEndpoint');
  db = createDb({ table, endpoint });
  await ensureTable(db);
  sqs = await startLoopbackSqs();
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    CRAWL_QUEUE_URL: sqs.queueUrl('crawl'),
    PUBLIC_URL: 'https://csp.example.test',
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SESSION_SECRET: 'x'.repeat(40),
    ALTCHA_HMAC_KEY: 'y'.repeat(40),
    LOG_LEVEL: 'silent',
  });
  ({ handler } = await import('./dispatcher-lambda'));
});
afterAll(async () => {
  await sqs?.close();
  db?.doc.destroy();
});

describe('the schedule dispatcher Lambda', () => {
  it('starts a due schedule and sends its crawl in the owner’s group', async () => {
    const domain = await createDomain(db, 'owner-1', {
      name: 'Shop',
      url: 'https://shop.example/',
      isActive: true,
    });
    const dueAt = Date.now() - 60_000;
    await putSchedule(db, {
      domainId: domain.id,
      userId: domain.userId,
      schedule: { frequency: 'daily', time: '06:00', weekday: 1, timeZone: 'UTC' },
      crawlRequest: {
        url: domain.url,
        urlList: [],
        maxPages: 3,
        crawlDelay: 0,
        userAgent: '',
        headerBudget: 4096,
        policyTarget: 'header',
      },
      reportUri: 'https://csp.example.test/api/uri-report?domain=x',
      nextRunAt: dueAt,
    });
    const result = await handler();
    expect(result.schedules?.started).toBe(1);
    expect(result.deliveries).toBe(0);
    const [analysis] = await listDomainAnalyses(db, domain.id);
    expect(analysis).toMatchObject({
      trigger: 'schedule',
      maxPages: 3,
      reportUri: 'https://csp.example.test/api/uri-report?domain=x',
    });
    expect(sqs.messages('crawl').map((m) => JSON.parse(m))).toEqual([{ analysisId: analysis!.id }]);
    expect(sqs.groups('crawl')).toEqual(['owner-1']);
    expect((await getSchedule(db, domain.id))!.nextRunAt).toBeGreaterThan(Date.now());
  });
});
