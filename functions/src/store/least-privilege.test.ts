// The IAM policy of each restricted function allows only the key prefixes in shared/src/store/key-prefixes.ts
// (dynamodb:LeadingKeys); the crawler has no table access at all. Here each one runs its real code on
// DynamoDB Local — a real crawl of a loopback site (coordinator, crawler, writer), reports through the real
// endpoint and consumer (inline code included), their clearing in the background (by the consumer) and the
// domain's deletion, a dead-lettered crawl — through a handle that records every
// partition it touches. Anything outside its list would be refused in
// AWS, so it fails here first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FUNCTION_KEY_PREFIXES,
  FUNCTION_WRITE_KEY_PREFIXES,
  type RestrictedFunction,
} from '@csp/shared/store/key-prefixes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBlobStore } from '../blobs';
import { inProcessCrawlWriter } from '../crawl-writer/writer';
import { type FixtureSites, startFixtureSites } from '../crawler/fixtures/sites';
import { createCrawlHandler } from '../crawler/handler';
import type { LocalServer } from '../local/server';
import { createLogger } from '../logger';
import { createDeadLetterHandler } from '../queue/dead-letter';
import { registeredClient, startTestServer } from '../testing/api-server';
import { outside, recordingDb, type Touch } from '../testing/key-recorder';
import { sendReport, until } from '../testing/reports';
import { sqsRecord } from '../testing/sqs-events';
import { getReportClear } from './report-clear';

const blobDir = mkdtempSync(join(tmpdir(), 'csp-blobs-'));
// The schedule dispatcher's prefixes are checked where it runs, in watch/dispatch.test.ts.
type Checked = Exclude<RestrictedFunction, 'scheduleDispatcher'>;
const touched: Record<Checked, Touch[]> = {
  crawlCoordinator: [],
  crawlWriter: [],
  crawlDeadLetter: [],
  reportIngest: [],
  reportConsumer: [],
};
let server: LocalServer;
let sites: FixtureSites;

beforeAll(async () => {
  sites = await startFixtureSites({
    mainOnly: () => ({
      '/': {
        type: 'text/html',
        body: '<!doctype html><title>home</title><script>document.title += "!"</script><a href="/a">a</a>',
      },
      '/a': { type: 'text/html', body: '<!doctype html><title>a</title><img src="/logo.png">' },
      '/logo.png': { type: 'image/png', body: Buffer.from('89504e470d0a1a0a', 'hex') },
    }),
  });
  const record = (fn: RestrictedFunction, db: Parameters<typeof recordingDb>[0]) =>
    fn === 'scheduleDispatcher' ? db : recordingDb(db, touched[fn]).db;
  server = await startTestServer({
    dbFor: record,
    crawlHandler: (deps) =>
      // The crawler code itself gets no table handle at all: only the writer, on the writer's own.
      createCrawlHandler({
        db: record('crawlCoordinator', deps.db),
        writer: inProcessCrawlWriter(record('crawlWriter', deps.db), deps.logger),
        queue: deps.queue,
        logger: deps.logger,
        blobs: new LocalBlobStore(blobDir),
        allowPrivateTargets: true,
        crawlOptions: { settle: { idleMs: 50 } },
      }),
  });
});

afterAll(async () => {
  await server?.close();
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

describe('least privilege of the restricted functions', () => {
  it('crawl coordinator and writer, dead-letter handler, report ingest and consumer touch only their key prefixes', async () => {
    const { client } = await registeredClient(server.url);
    const domain = await (
      await client.post('/api/domains', { name: 'Fixture', url: `${sites.origins.main}/` })
    ).json();
    const started = await client.post('/api/csp-analyses', {
      domainId: domain.id,
      crawlRequest: { maxPages: 2 },
    });
    expect(started.status).toBe(201);
    const analysisId = (await started.json()).id;
    const done = await until(
      async () => (await (await client.get(`/api/csp/analyze/${analysisId}`)).json()).analysis.status,
      (s) => s === 'completed' || s === 'failed',
      90_000,
    );
    expect(done).toBe('completed');

    // Reports: a missed image, inline code the crawl never saw (judged against its knowledge) and a script.
    const reports: Record<string, string>[] = [
      {
        'document-uri': `${sites.origins.main}/a`,
        'violated-directive': 'img-src',
        'blocked-uri': 'https://x.example/p.gif',
      },
      {
        'document-uri': `${sites.origins.main}/`,
        'violated-directive': 'script-src-elem',
        'blocked-uri': 'inline',
        'script-sample': 'alert(document.cookie)',
      },
      // A script no crawl saw: listed in the domain's script inventory as seen by the field.
      {
        'document-uri': `${sites.origins.main}/`,
        'violated-directive': 'script-src-elem',
        'blocked-uri': 'https://skim.example/s.js',
      },
    ];
    for (const report of reports) {
      expect((await sendReport(server.url, domain.uuid, report)).status).toBe(204);
    }
    const total = await until(
      async () => (await (await client.get(`/api/domains/${domain.id}/uri-reports`)).json()).total,
      (n) => n >= 3,
    );
    expect(total).toBe(3);

    // Clearing the reports, then deleting the domain: the API only writes the job and sends its message;
    // the consumer deletes the reports, counts and policies and advances the job (and, the domain gone,
    // deletes the job). The job is read from the table, not polled (a poll would advance it too).
    const consumerBefore = touched.reportConsumer.length;
    expect((await client.delete(`/api/domains/${domain.id}/uri-reports`)).status).toBe(202);
    await until(
      () => getReportClear(server.deps.db, domain.id),
      (job) => job?.state === 'done',
      30_000,
    );
    expect((await client.delete(`/api/domains/${domain.id}`)).status).toBe(200);
    expect(
      await until(
        () => getReportClear(server.deps.db, domain.id),
        (job) => job === null,
        30_000,
      ),
    ).toBeNull();
    const clearing = touched.reportConsumer.slice(consumerBefore);
    const deletedIn = (prefix: string) =>
      clearing.some((t) => t.command === 'BatchWriteCommand' && t.partition.startsWith(prefix));
    for (const prefix of ['REPORT#', 'RCOUNT#', 'RSTATS#', 'RGUARD#'])
      expect(deletedIn(prefix), prefix).toBe(true);
    expect(clearing.some((t) => t.command === 'UpdateCommand' && t.partition.startsWith('RCLEAR#'))).toBe(
      true,
    );
    expect(clearing.some((t) => t.command === 'DeleteCommand' && t.partition.startsWith('RCLEAR#'))).toBe(
      true,
    );

    // A crawl message that exhausted its deliveries, as the dead-letter queue hands it over.
    const deadLetterDb = recordingDb(server.deps.db, touched.crawlDeadLetter).db;
    await createDeadLetterHandler(
      deadLetterDb,
      createLogger('silent'),
    )({
      Records: [sqsRecord(JSON.stringify({ analysisId }), { messageId: 'm1', receives: 3 })],
    });

    for (const fn of Object.keys(touched) as Checked[]) {
      // Each did real work, and nothing of it fell outside its prefixes.
      expect(touched[fn].length, fn).toBeGreaterThan(0);
      expect(outside(touched[fn], FUNCTION_KEY_PREFIXES[fn]), fn).toEqual([]);
    }
    // The coordinator needs no index at all, the writer only the domain's saved configurations (drift); the
    // writer writes achievements (an analysis completed), the crawl's knowledge and the domain's watched
    // run; the crawler is not in the list: it has no table access.
    expect(touched.crawlCoordinator.filter((t) => t.index)).toEqual([]);
    expect(
      touched.crawlWriter.filter(
        (t) => t.index && !(t.index === 'gsi2' && /^DOMAIN#[^#]+#CONFIG$/.test(t.partition)),
      ),
    ).toEqual([]);
    expect(touched.crawlWriter.some((t) => t.partition.startsWith('ACHIEVE#'))).toBe(true);
    expect(
      touched.reportConsumer.some((t) => t.command === 'PutCommand' && t.partition.startsWith('SCRIPTS#')),
    ).toBe(true);
    expect(
      touched.crawlWriter.some((t) => t.command === 'PutCommand' && t.partition.startsWith('WATCHRUN#')),
    ).toBe(true);
    expect(touched.crawlCoordinator.some((t) => t.partition.startsWith('RUNSLOTS#'))).toBe(true);
    expect(Object.keys(FUNCTION_KEY_PREFIXES)).not.toContain('crawler');
    // Where a function writes only part of its prefixes, its writes stay there (it reads the others).
    const writes = (list: Touch[]) =>
      list.filter((t) => /^(Put|Update|Delete|BatchWrite|TransactWrite)Command$/.test(t.command));
    for (const [fn, prefixes] of Object.entries(FUNCTION_WRITE_KEY_PREFIXES)) {
      const written = writes(touched[fn as Checked]);
      expect(written.length, fn).toBeGreaterThan(0);
      expect(outside(written, prefixes), fn).toEqual([]);
    }
    // The consumer reads the domain and the crawl it judges reports against, and writes neither.
    expect(touched.reportConsumer.some((t) => t.partition.startsWith('ANALYSIS#'))).toBe(true);
  });
});
