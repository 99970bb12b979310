// The Lambda entries fed the event shapes AWS sends (the API's own, API Gateway v2, is api/lambda.test.ts):
// a Lambda Function URL request (payload 2.0) for ingest, whose message goes through the real SQS client to a
// loopback SQS; that message as an SQS batch, beside a poison message and one DynamoDB refuses, for the
// consumer (a partial batch failure), and a clear message the consumer works through, sending it on to SQS
// while there is more; SQS batches for the dead-letter handler and the crawl coordinator; and
// the crawl's three functions end to end — the coordinator invoking the crawler, the crawler invoking the
// crawl writer — through the real Lambda client to a loopback Lambda. DynamoDB Local underneath.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import type { ReportClearMessage } from '@csp/shared/schemas/report';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
  SQSEvent,
} from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lambdaCrawlWriter } from '../crawl-writer/lambda-client';
import { type FixtureSites, startFixtureSites } from '../crawler/fixtures/sites';
import { createLogger } from '../logger';
import { createSqsReportQueue } from '../queue/sqs-report-queue';
import { createAnalysis, getAnalysis } from '../store/analyses';
import { claimAnalysis } from '../store/analysis-runs';
import { batchPut } from '../store/batch';
import { createDb, type Db } from '../store/db';
import { createDomain } from '../store/domains';
import { getReportClear, requestReportClear } from '../store/report-clear';
import { listDomainReports } from '../store/reports';
import { newRunToken, runTokenDigest } from '../store/run-token';
import { ensureTable } from '../store/table';
import { type InvokedHandler, type LoopbackLambda, startLoopbackLambda } from '../testing/loopback-lambda';
import { type LoopbackSqs, startLoopbackSqs } from '../testing/loopback-sqs';
import { floodCounterItems } from '../testing/reports';
import { sqsRecord } from '../testing/sqs-events';

type UrlHandler = (e: APIGatewayProxyEventV2, c: Context) => Promise<APIGatewayProxyStructuredResultV2>;
type SqsHandler = (
  e: SQSEvent,
  c?: Context,
) => Promise<{ batchItemFailures: { itemIdentifier: string }[] } | undefined>;

const table = `entries-${randomBytes(4).toString('hex')}`;
let db: Db;
let sqs: LoopbackSqs;
let ingest: UrlHandler;
let consumer: SqsHandler;
let deadLetter: SqsHandler;
let coordinator: SqsHandler;
let crawler: InvokedHandler;
let lambda: LoopbackLambda;
let sites: FixtureSites;
const context = { getRemainingTimeInMillis: () => 60_000 } as Context;
const dataDir = mkdtempSync(join(tmpdir(), 'csp-entries-'));

beforeAll(async () => {
  const endpoint = inject('dynamoEndpoint');
  db = createDb({ table, endpoint });
  await ensureTable(db);
  sqs = await startLoopbackSqs();
  // As long as a crawler's 15 minutes: the crawler entry reads its deadline from here.
  lambda = await startLoopbackLambda(15 * 60_000);
  sites = await startFixtureSites({
    mainOnly: () => ({
      '/': { type: 'text/html', body: '<!doctype html><title>t</title><img src="/i.png">' },
    }),
  });
  Object.assign(process.env, {
    DYNAMODB_ENDPOINT: endpoint,
    TABLE_NAME: table,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    REPORT_QUEUE_URL: sqs.queueUrl('reports'),
    // A short clearing step: a clear of a few thousand items takes several messages.
    REPORT_CLEAR_STEP_MS: '100',
    CRAWL_QUEUE_URL: sqs.queueUrl('crawl'),
    CRAWLER_FUNCTION: 'crawler',
    CRAWL_WRITER_FUNCTION: 'crawl-writer',
    AWS_ENDPOINT_URL_LAMBDA: lambda.endpoint,
    // The fixture site is on loopback.
    ALLOW_PRIVATE_TARGETS: 'true',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'https://csp.example.test',
    LOG_LEVEL: 'silent',
  });
  ({ handler: ingest } = (await import('../report-ingest/lambda')) as unknown as { handler: UrlHandler });
  ({ handler: consumer } = (await import('../report-ingest/consumer-lambda')) as unknown as {
    handler: SqsHandler;
  });
  ({ handler: deadLetter } = (await import('../queue/dead-letter-lambda')) as unknown as {
    handler: SqsHandler;
  });
  ({ handler: coordinator } = (await import('../crawler/coordinator-lambda')) as unknown as {
    handler: SqsHandler;
  });
  ({ handler: crawler } = (await import('../crawler/lambda')) as unknown as { handler: InvokedHandler });
  const { handler: writer } = (await import('../crawl-writer/lambda')) as unknown as {
    handler: InvokedHandler;
  };
  lambda.register('crawler', crawler);
  lambda.register('crawl-writer', writer);
});
afterAll(async () => {
  await sqs?.close();
  await lambda?.close();
  await sites?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A request to the ingest function's own URL, as Lambda Function URLs deliver it. */
function functionUrlEvent(method: string, body: string | undefined, headers: Record<string, string>) {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: '/api/uri-report',
    rawQueryString: headers['x-query'] ?? '',
    queryStringParameters: Object.fromEntries(new URLSearchParams(headers['x-query'] ?? '')),
    headers: {
      host: 'abcdefghij.lambda-url.us-east-1.on.aws',
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.9',
      ...headers,
    },
    requestContext: {
      accountId: 'anonymous',
      apiId: 'abcdefghij',
      domainName: 'abcdefghij.lambda-url.us-east-1.on.aws',
      domainPrefix: 'abcdefghij',
      http: {
        method,
        path: '/api/uri-report',
        protocol: 'HTTP/1.1',
        sourceIp: '203.0.113.9',
        userAgent: 'Firefox',
      },
      requestId: randomBytes(8).toString('hex'),
      routeKey: '$default',
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body === undefined ? {} : { body, isBase64Encoded: false }),
  } as unknown as APIGatewayProxyEventV2;
}

describe('report path Lambda entries (Function URL and SQS events)', () => {
  it('ingest answers a Function URL report with 204 after its message is in SQS; the consumer stores it', async () => {
    const domain = await createDomain(db, 'u-entries', {
      name: 'Site',
      url: 'https://site.example/',
      isActive: true,
    });
    const report = JSON.stringify({
      'csp-report': {
        'document-uri': 'https://site.example/pricing',
        'violated-directive': 'img-src',
        'blocked-uri': 'https://cdn.other.example/pixel.gif',
        'line-number': '12',
      },
    });
    const res = await ingest(
      functionUrlEvent('POST', report, {
        'content-type': 'application/csp-report',
        'x-query': `domain=${domain.uuid}`,
      }),
      context,
    );
    expect(res.statusCode).toBe(204);
    expect(res.headers?.['access-control-allow-origin']).toBe('*');
    const [message] = sqs.messages('reports');
    expect(message).toBeDefined();
    const parsed = JSON.parse(message!);
    expect(parsed).toMatchObject({ domainId: domain.id, domainUuid: domain.uuid, clientIp: '203.0.113.0' });
    expect(parsed.reports[0]).toMatchObject({ violatedDirective: 'img-src', lineNumber: 12 });

    // A preflight and a bad body: answered, nothing queued.
    const preflight = await ingest(
      functionUrlEvent('OPTIONS', undefined, { origin: 'https://site.example' }),
      context,
    );
    expect(preflight.statusCode).toBe(204);
    const bad = await ingest(
      functionUrlEvent('POST', '{"csp-report":{}}', {
        'content-type': 'application/csp-report',
        'x-query': `domain=${domain.uuid}`,
      }),
      context,
    );
    expect(bad.statusCode).toBe(400);
    expect(sqs.messages('reports')).toHaveLength(1);

    // The queue hands the message to the consumer in a batch, beside a poison message (dropped, logged, not
    // retried) and a message whose writes DynamoDB refuses (a partition key over its 2,048 bytes): only that
    // one is reported back, so SQS delivers it again while the rest of the batch is done.
    const refused = sqsRecord(JSON.stringify({ ...parsed, domainId: 'x'.repeat(3000) }));
    const out = await consumer({ Records: [sqsRecord(message!), sqsRecord('{not json'), refused] });
    expect(out).toEqual({ batchItemFailures: [{ itemIdentifier: refused.messageId }] });
    const stored = await listDomainReports(db, domain.id, { sinceMs: 0, limit: 10 });
    expect(stored.reports).toHaveLength(1);
    expect(stored.reports[0]).toMatchObject({
      blockedUri: 'https://cdn.other.example/pixel.gif',
      lineNumber: 12,
    });
  });

  it('the consumer entry takes a clear message, sends it on to SQS while there is more, and finishes', async () => {
    const domain = await createDomain(db, 'u-clear', {
      name: 'Flooded',
      url: 'https://flooded.example/',
      isActive: true,
    });
    const n = 3000;
    await batchPut(db, floodCounterItems(domain.id, n));
    // The message as the API sends it, through the real SQS client.
    const queue = createSqsReportQueue<ReportClearMessage>(sqs.queueUrl('reports'));
    const sentBefore = sqs.messages('reports').length;
    await requestReportClear({ db, reportQueue: queue, logger: createLogger('silent') }, domain.id);
    let bodies = sqs.messages('reports').slice(sentBefore);
    expect(bodies).toHaveLength(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ kind: 'clear', domainId: domain.id });
    let invocations = 0;
    let seen = sentBefore + 1;
    while (bodies.length > 0 && invocations < 200) {
      // Each invocation gets the message the last one sent on.
      const out = await consumer({ Records: [sqsRecord(bodies.at(-1)!)] });
      expect(out).toEqual({ batchItemFailures: [] });
      invocations += 1;
      bodies = sqs.messages('reports').slice(seen);
      seen += bodies.length;
    }
    expect(invocations).toBeGreaterThan(1);
    expect(await getReportClear(db, domain.id)).toMatchObject({ state: 'done', deleted: n });
  });

  it('the dead-letter entry fails the analysis of an exhausted crawl message and drops a poison one', async () => {
    const analysis = await createAnalysis(db, {
      userId: 'u-entries',
      domainId: null,
      url: 'https://site.example/',
      crawlRequest: crawlRequestSchema.parse({ url: 'https://site.example/' }),
    });
    await deadLetter({
      Records: [sqsRecord(JSON.stringify({ analysisId: analysis.id }), { receives: 3 }), sqsRecord('poison')],
    });
    const failed = await getAnalysis(db, analysis.id);
    expect(failed?.status).toBe('failed');
    expect(failed?.errors?.[0]).toMatch(/stopped after 3 failed attempts/);
  });

  it('the coordinator entry drops a poison message and a message of an analysis that does not exist', async () => {
    const out = await coordinator(
      { Records: [sqsRecord('{"analysisId":'), sqsRecord(JSON.stringify({ analysisId: 'A'.repeat(26) }))] },
      context,
    );
    expect(out).toEqual({ batchItemFailures: [] });
    expect(lambda.invoked).toEqual([]);
  });

  it('the crawler entry takes an analysis job only: an SQS event or a job without a valid token is refused', async () => {
    const job = {
      analysisId: 'A'.repeat(26),
      runToken: 'forged',
      crawlRequest: crawlRequestSchema.parse({ url: 'https://site.example/' }),
      reportUri: null,
      checkpointId: newRunToken(),
      resume: false,
      deadline: Date.now() + 60_000,
    };
    await expect(async () => crawler({ Records: [sqsRecord('{}')] }, context)).rejects.toThrow(
      /Not an analysis job/,
    );
    await expect(async () => crawler(job, context)).rejects.toThrow(/Not an analysis job/);
  });

  it('the crawl writer entry, through the Lambda client: the current run writes, a forged token does not', async () => {
    const analysis = await createAnalysis(db, {
      userId: 'u-writer',
      domainId: null,
      url: 'https://site.example/',
      crawlRequest: crawlRequestSchema.parse({ url: 'https://site.example/' }),
    });
    const runToken = newRunToken();
    await claimAnalysis(db, analysis.id, runTokenDigest(runToken), 60_000);
    const writer = lambdaCrawlWriter('crawl-writer');
    const report = { stage: 'crawling' as const, progress: 30, currentPage: null, totalPages: 4 };
    expect(await writer.progress({ analysisId: analysis.id, runToken }, report)).toBe(true);
    expect(await writer.progress({ analysisId: analysis.id, runToken: newRunToken() }, report)).toBe(false);
    await expect(writer.fail({ analysisId: analysis.id, runToken }, [])).rejects.toThrow(/Invalid request/);
    expect(await getAnalysis(db, analysis.id)).toMatchObject({
      status: 'running',
      progress: 30,
      totalPages: 4,
    });
  });

  it('coordinator, crawler and writer entries crawl an analysis from its SQS message to completed', async () => {
    const url = `${sites.origins.main}/`;
    const analysis = await createAnalysis(db, {
      userId: 'u-crawl',
      domainId: 'd-crawl',
      url,
      crawlRequest: crawlRequestSchema.parse({ url, maxPages: 1, crawlDelay: 0 }),
      reportUri: 'https://csp.example.test/api/uri-report?domain=x',
    });
    const invoked = lambda.invoked.length;
    const out = await coordinator({ Records: [sqsRecord(JSON.stringify({ analysisId: analysis.id }))] }, {
      getRemainingTimeInMillis: () => 14 * 60_000,
    } as Context);
    expect(out).toEqual({ batchItemFailures: [] });
    const done = await getAnalysis(db, analysis.id);
    expect(done).toMatchObject({ status: 'completed', totalPages: 1 });
    expect(done?.cspRules?.['report-uri']).toEqual(['https://csp.example.test/api/uri-report?domain=x']);
    // One crawler invocation; every write of it through the writer.
    const calls = lambda.invoked.slice(invoked);
    expect(calls[0]).toBe('crawler');
    expect(calls.filter((c) => c === 'crawler')).toHaveLength(1);
    expect(calls.filter((c) => c === 'crawl-writer').length).toBeGreaterThan(1);
  }, 120_000);
});
