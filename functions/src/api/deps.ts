// What the API needs from the outside world, built once per process (or per Lambda container).
import type { Hono } from 'hono';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import type { SessionRecord } from '../store/sessions';
import type { UserRecord } from '../store/users';

export interface Secrets {
  sessionSecret: string;
  altchaHmacKey: string;
  /** 32 bytes, base64: encrypts TOTP secrets at rest. */
  totpEncryptionKey: string;
  /**
   * In AWS, CloudFront adds this value as the x-origin-verify header; requests without it bypassed CloudFront
   * (the execute-api URL is public) and are refused. Unset locally.
   */
  originVerify?: string;
}

/** Sends a started analysis to the crawler (SQS in AWS, the in-process queue locally). */
export interface AnalysisQueue {
  send(message: { analysisId: string }, delaySeconds?: number): Promise<void>;
}

export interface ApiDeps {
  db: Db;
  config: Config;
  secrets: Secrets;
  logger: Logger;
  queue: AnalysisQueue;
}

export interface ApiEnv {
  Variables: {
    deps: ApiDeps;
    requestId: string;
    log: Logger;
    user: UserRecord | null;
    session: SessionRecord | null;
  };
}

export type ApiApp = Hono<ApiEnv>;
