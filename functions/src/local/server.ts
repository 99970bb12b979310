// The whole product in one process: the web app, the API, the report endpoint and the crawl queue, on
// DynamoDB Local. The same handlers as in AWS; nothing here is a stand-in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ReportQueueMessage } from '@csp/shared/schemas/report';
import type { RestrictedFunction } from '@csp/shared/store/key-prefixes';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createApiApp } from '../api/app';
import type { ApiDeps } from '../api/deps';
import { type Config, loadConfig } from '../config';
import { securityHeaders } from '../http/security-headers';
import { createLogger } from '../logger';
import { createDeadLetterHandler } from '../queue/dead-letter';
import { LocalDurableQueue } from '../queue/local-durable-queue';
import { LocalQueue, type SqsHandler } from '../queue/local-queue';
import { createIngestApp } from '../report-ingest/app';
import { createReportConsumer } from '../report-ingest/consumer';
import type { Secrets } from '../secrets';
import { createDb, type Db } from '../store/db';
import { ensureTable } from '../store/table';
import { watchTick } from '../watch/watch-tick';
import { type DynamoLocal, startDynamoLocal } from './dynamo-local';
import { ENDPOINT_FILE } from './endpoint-file';
import { allowedHosts, hostGuard } from './host-guard';
import { startScheduleTimer } from './schedule-timer';
import { loadLocalSecrets, randomSecrets } from './secrets';
import { staticFiles } from './static-files';

export interface LocalServerOptions {
  /** 0 picks a free port. Default: PORT from the environment, else 3000. */
  port?: number;
  host?: string;
  dataDir?: string;
  /** Use this DynamoDB (tests); otherwise DynamoDB Local is started with its data in dataDir. */
  dynamoEndpoint?: string;
  tableName?: string;
  webDist?: string;
  secrets?: Secrets;
  /** Settings over the environment's (tests set small proof-of-work and scrypt costs here). */
  env?: Record<string, string>;
  /**
   * The crawl handler the queue delivers to (functions/src/crawler). `ownPorts` is filled once the server
   * and DynamoDB Local listen: the crawler must never reach them, whatever a crawled page asks for.
   */
  crawlHandler?: (deps: ApiDeps, local: { ownPorts: readonly number[] }) => SqsHandler;
  /** Where the report queue keeps its log: DATA_DIR/report-queue, or a temporary folder in tests. */
  reportQueueDir?: string;
  /** The table handle each restricted function gets (the least-privilege test records their keys). */
  dbFor?: (fn: RestrictedFunction, db: Db) => Db;
  /** The schedule dispatcher's clock (tests move time on) and how often it runs (default: every minute). */
  clock?: () => number;
  scheduleEveryMs?: number;
}

export interface LocalServer {
  url: string;
  port: number;
  deps: ApiDeps;
  queue: LocalQueue;
  reportQueue: LocalDurableQueue<ReportQueueMessage>;
  /** Compresses the web app's files now (`npm start`, once it is built), not on their first request. */
  precompressWeb(): Promise<void>;
  close(): Promise<void>;
}

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<LocalServer> {
  const config: Config = loadConfig({
    ALLOW_PRIVATE_TARGETS: 'true',
    ...process.env,
    ...opts.env,
    ...(opts.tableName ? { TABLE_NAME: opts.tableName } : {}),
  });
  const dataDir = resolve(opts.dataDir ?? config.DATA_DIR);
  const logger = createLogger(config.LOG_LEVEL);

  let dynamo: DynamoLocal | null = null;
  const endpoint = opts.dynamoEndpoint ?? config.DYNAMODB_ENDPOINT;
  if (!endpoint) {
    dynamo = await startDynamoLocal({ dataDir });
    writeFileSync(join(dataDir, ENDPOINT_FILE), dynamo.endpoint);
  }
  try {
    const db = createDb({
      table: config.TABLE_NAME,
      endpoint: endpoint ?? dynamo!.endpoint,
      region: 'local',
    });
    await ensureTable(db);

    const secrets =
      opts.secrets ?? (opts.dynamoEndpoint ? randomSecrets() : loadLocalSecrets(config, dataDir));
    const dbOf = (fn: RestrictedFunction) => opts.dbFor?.(fn, db) ?? db;
    const queueRef: { current?: LocalQueue } = {};
    const ownPorts: number[] = [Number(new URL(endpoint ?? dynamo!.endpoint).port)];
    const deps: ApiDeps = {
      db,
      config,
      secrets,
      logger,
      queue: { send: (m, o) => queueRef.current!.send(m, o) },
      // The report queue below: clear messages go beside the reports, to the same consumer.
      reportQueue: { sendAll: (m) => reportQueue.sendAll(m) },
    };
    const notWired: SqsHandler = async () => {
      throw new Error('No crawl handler is wired into this server');
    };
    const queue = new LocalQueue({
      handler: opts.crawlHandler ? opts.crawlHandler(deps, { ownPorts }) : notWired,
      deadLetter: createDeadLetterHandler(dbOf('crawlDeadLetter'), logger),
      logger,
    });
    queueRef.current = queue;

    // Tests on a shared DynamoDB get a report queue of their own; `npm start` keeps it under DATA_DIR.
    const tempQueueDir = !opts.reportQueueDir && opts.dynamoEndpoint && !opts.dataDir;
    const reportQueueDir =
      opts.reportQueueDir ??
      (tempQueueDir ? mkdtempSync(join(tmpdir(), 'csp-report-queue-')) : join(dataDir, 'report-queue'));
    const reportQueue: LocalDurableQueue<ReportQueueMessage> = new LocalDurableQueue<ReportQueueMessage>({
      dir: reportQueueDir,
      handler: createReportConsumer({
        db: dbOf('reportConsumer'),
        logger,
        // A clear with more to delete goes on in the next batch, as in AWS.
        clear: { queue: { sendAll: (m) => reportQueue.sendAll(m) }, stepMs: config.REPORT_CLEAR_STEP_MS },
      }),
      logger,
    });
    reportQueue.start();
    const ingest = createIngestApp({ db: dbOf('reportIngest'), config, logger, queue: reportQueue });

    // Alert links are made on the product's address: known once the server listens (below).
    let publicUrl = config.PUBLIC_URL ?? '';
    const tickDb = dbOf('scheduleDispatcher');
    const schedules = startScheduleTimer({
      dispatch: (now) =>
        watchTick(
          {
            db: tickDb,
            queue: deps.queue,
            config,
            logger,
            alerts: { db: tickDb, config, secrets, log: logger, publicUrl },
          },
          now,
        ),
      everyMs: opts.scheduleEveryMs ?? 60_000,
      clock: opts.clock ?? Date.now,
      logger,
    });

    const api = createApiApp(deps);
    const app = new Hono();
    let hosts: ReadonlySet<string> = new Set();
    app.use(hostGuard(() => hosts));
    // Browsers on customers' sites post reports here: the report app answers before the API's guards.
    app.route('/', ingest);
    app.route('/', api);
    app.use(securityHeaders({ https: () => Boolean(config.PUBLIC_URL?.startsWith('https:')) }));
    // An unknown API path is a JSON 404, never the web app's index.html.
    app.all('/api/*', (c) => c.json({ message: 'Not found' }, 404));
    const web = staticFiles(opts.webDist ?? resolve(import.meta.dirname, '../../../web/dist'));
    app.all('*', web);

    const port = opts.port ?? config.PORT;
    const host = opts.host ?? '127.0.0.1';
    const server = serve({ fetch: app.fetch, port, hostname: host });
    await new Promise<void>((ok, fail) => {
      server.once('listening', () => ok());
      server.once('error', fail);
    });
    const actualPort = (server.address() as AddressInfo).port;
    ownPorts.push(actualPort);
    hosts = allowedHosts({ port: actualPort, host, publicUrl: config.PUBLIC_URL });
    const url = `http://${host === '0.0.0.0' ? 'localhost' : host}:${actualPort}`;
    publicUrl ||= url;
    return {
      url,
      precompressWeb: () => web.precompress(),
      port: actualPort,
      deps,
      queue,
      reportQueue,
      async close() {
        await schedules.stop();
        await queue.close();
        await reportQueue.close();
        if (tempQueueDir) rmSync(reportQueueDir, { recursive: true, force: true });
        await new Promise<void>((ok) => server.close(() => ok()));
        db.doc.destroy();
        if (dynamo) {
          rmSync(join(dataDir, ENDPOINT_FILE), { force: true });
          await dynamo.stop();
        }
      },
    };
  } catch (err) {
    await dynamo?.stop();
    throw err;
  }
}
