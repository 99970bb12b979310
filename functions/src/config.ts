// Every setting of the functions, read from the environment in one place. Defaults serve `npm start`.
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import * as z from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** An outgoing mail server's address: smtp:// or smtps://, credentials in the URL (SMTP_URL, the AWS mail secret). */
export const SMTP_URL_PATTERN = /^smtps?:\/\//;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('.data'),
  TABLE_NAME: z.string().default('csp-generator'),
  /** Unset in AWS (the SDK finds DynamoDB); set locally to DynamoDB Local. */
  DYNAMODB_ENDPOINT: z.string().optional(),
  AWS_REGION: z.string().default('us-east-1'),
  /** Loopback and private targets may be crawled: on for local use, off in the deployed stack. */
  ALLOW_PRIVATE_TARGETS: bool,
  /** Public origin of the product (report-uri, cookie security); derived from the request when unset. */
  PUBLIC_URL: z.string().optional(),
  SESSION_SECRET: z.string().optional(),
  ALTCHA_HMAC_KEY: z.string().optional(),
  TOTP_ENCRYPTION_KEY: z.string().optional(),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  /** Upper bound of the proof-of-work counter: the work a browser does to sign in. */
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(1000).max(1_000_000).default(1_000_000),
  ALTCHA_EXPIRE_SECONDS: z.coerce.number().int().min(30).max(600).default(600),
  /** scrypt cost exponent: 17 (N=2^17) is OWASP's recommendation. */
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(20).default(17),
  LOGIN_MAX_FAILURES_PER_USER: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(20),
  LOGIN_WINDOW_SECONDS: z.coerce
    .number()
    .int()
    .min(10)
    .default(15 * 60),
  /** Team invitations one user may send per UTC day; revoking one, or deleting the team, gives none back. */
  INVITATIONS_PER_USER_PER_DAY: z.coerce.number().int().min(1).default(20),
  /** Team invitations one team may send per UTC day. */
  INVITATIONS_PER_TEAM_PER_DAY: z.coerce.number().int().min(1).default(20),
  /**
   * API requests one client address (IPv6: its /64) may send per minute, per process, with bursts of as
   * many: sign-in, registration and the proof-of-work challenge together, and every other API path.
   */
  API_SIGN_IN_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  API_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Requests one API token may make per minute, counted in the table (across every Lambda container). */
  API_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  CRAWL_QUEUE_URL: z.string().optional(),
  /**
   * Pages one user's analyses may crawl per UTC day (each start reserves its maxPages; what a crawl did not
   * use is given back when it ends). Protects the shared crawler and the crawled sites from one tenant.
   */
  CRAWL_DAILY_PAGES: z.coerce
    .number()
    .int()
    .min(CRAWL_LIMITS.dailyPagesPerUser.min)
    .default(CRAWL_LIMITS.dailyPagesPerUser.default),
  /** The crawler function the crawl coordinator invokes with each job (AWS). */
  CRAWLER_FUNCTION: z.string().optional(),
  /**
   * Firefox for verification beside Chromium (`npm start`, CI); unset: /usr/bin/firefox-esr or
   * /usr/bin/firefox when installed. Never used in AWS (the crawler Lambda has no Firefox).
   */
  FIREFOX_PATH: z.string().optional(),
  /** The crawl writer function, the only thing the crawler may invoke (AWS). */
  CRAWL_WRITER_FUNCTION: z.string().optional(),
  /**
   * The report queue (SQS) the ingest handler sends reports to, and the API and the report consumer send
   * clear messages to; locally a file queue under DATA_DIR.
   */
  REPORT_QUEUE_URL: z.string().optional(),
  /**
   * How long the report consumer clears a domain's reports per clear message before it sends the message
   * again: well under its Lambda's 2-minute timeout, and short enough not to hold the batch it came in.
   */
  REPORT_CLEAR_STEP_MS: z.coerce.number().int().min(50).default(20_000),
  /**
   * Where browsers send reports, when not PUBLIC_URL's /api/uri-report (a Lambda Function URL of the ingest
   * handler, for high volume). Written into every generated policy's report-uri.
   */
  REPORT_ENDPOINT_ORIGIN: z.string().optional(),
  /** Report requests one client may send per minute (per process; IPv6 clients grouped by /64). */
  REPORT_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Reports one domain may send per second (per process), with bursts of twice that. */
  REPORT_DOMAIN_PER_SECOND: z.coerce.number().int().min(1).default(1000),
  BLOB_BUCKET: z.string().optional(),
  /**
   * Outgoing mail (team invitations), e.g. smtps://user:pass@email-smtp.eu-west-1.amazonaws.com:465.
   * Optional: without it invitations are not mailed and the owner copies their link.
   */
  SMTP_URL: z.string().regex(SMTP_URL_PATTERN, 'SMTP_URL must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('CSP Generator <no-reply@localhost>'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
