// What the API needs from the outside world, built once per process (or per Lambda container).
import type { Hono } from 'hono';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { AnalysisQueue } from '../queue/queue';
import type { Secrets } from '../secrets';
import type { ApiTokenRecord } from '../store/api-tokens';
import type { Db } from '../store/db';
import type { ReportClearQueue } from '../store/report-clear';
import type { SessionRecord } from '../store/sessions';
import type { UserRecord } from '../store/users';

export interface ApiDeps {
  db: Db;
  config: Config;
  secrets: Secrets;
  logger: Logger;
  queue: AnalysisQueue;
  /** The report queue (SQS in AWS, the local durable queue): the API sends clear messages to it. */
  reportQueue: ReportClearQueue;
}

export interface ApiEnv {
  Variables: {
    deps: ApiDeps;
    requestId: string;
    log: Logger;
    user: UserRecord | null;
    session: SessionRecord | null;
    /** The API token the request was made with (Authorization: Bearer); then no cookie counts. */
    apiToken: ApiTokenRecord | null;
  };
}

export type ApiApp = Hono<ApiEnv>;
