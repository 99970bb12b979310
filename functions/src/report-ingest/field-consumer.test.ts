// The batch consumer's field hashes against DynamoDB Local: a message delivered again after it was counted
// is not counted twice (the same guard as CSP reports: field-only messages carry a guard token too).
import { randomBytes, randomUUID } from 'node:crypto';
import type { FieldReport } from '@csp/shared/schemas/field-report';
import type { ReportMessage } from '@csp/shared/schemas/report';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createLogger } from '../logger';
import { createDb, type Db } from '../store/db';
import { createDomain } from '../store/domains';
import { loadFieldHashes } from '../store/field-hashes';
import { ensureTable } from '../store/table';
import { sqsRecord } from '../testing/sqs-events';
import { createReportConsumer } from './consumer';

let db: Db;
beforeAll(async () => {
  db = createDb({ table: `f-${randomBytes(4).toString('hex')}`, endpoint: inject('dynamoEndpoint') });
  await ensureTable(db);
});

const SITE = 'https://www.example.com';
const SCRIPT = 'https://cdn.example.net/lib.js';
const DIGEST = `sha256-${'A'.repeat(43)}=`;

const field = (over: Partial<FieldReport> = {}): FieldReport =>
  ({
    kind: 'hash',
    documentUri: `${SITE}/`,
    scriptUrl: SCRIPT,
    digest: DIGEST,
    reportedAt: new Date().toISOString(),
    ...over,
  }) as FieldReport;

const message = (domainId: string, fieldReports: FieldReport[]): ReportMessage => ({
  domainId,
  domainUuid: randomUUID(),
  receivedAt: new Date().toISOString(),
  clientIp: '192.0.2.0',
  reports: [],
  fieldReports,
  dropped: {},
});

const digestCount = async (domainId: string) =>
  (await loadFieldHashes(db, domainId)).scripts[0]?.digests[0]?.count ?? 0;

describe('the report consumer, field hashes', () => {
  it('counts a field-only message once, also when it is delivered again after it was counted', async () => {
    const { id: domainId } = await createDomain(db, `u-${randomUUID()}`, {
      name: 'Shop',
      url: `${SITE}/`,
      isActive: true,
    });
    const consume = createReportConsumer({ db, logger: createLogger('silent') });
    const body = JSON.stringify(message(domainId, [field(), field({ documentUri: `${SITE}/cart` })]));
    const first = sqsRecord(body, { messageId: randomUUID() });
    expect((await consume({ Records: [first] })).batchItemFailures).toEqual([]);
    expect(await digestCount(domainId)).toBe(2);

    const again = sqsRecord(body, {
      messageId: first.messageId,
      receives: 2,
      sentAt: Number(first.attributes.SentTimestamp),
    });
    expect((await consume({ Records: [again] })).batchItemFailures).toEqual([]);
    expect(await digestCount(domainId)).toBe(2);

    // A new message is counted.
    expect((await consume({ Records: [sqsRecord(body)] })).batchItemFailures).toEqual([]);
    expect(await digestCount(domainId)).toBe(4);
  });
});
