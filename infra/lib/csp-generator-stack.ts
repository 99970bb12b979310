// The product in AWS (DESIGN.md, "Shape"): CloudFront with AWS WAF → S3 web app and the Function URLs of
// two Lambdas (api, report-ingest), reachable only through CloudFront (origin access control) → one
// DynamoDB table; the API enqueues crawls on SQS for the crawl coordinator, which runs each in the confined
// crawler Lambda (it writes through the crawl writer); failed jobs end in a dead-letter queue that a small
// Lambda turns into failed analyses. What CloudFront needs from us-east-1 (the web ACL, the Lambda@Edge body
// hash) is in this stack when it is there, else in a companion stack there (`<id>-edge`, deployed first by
// the same `cdk deploy --all`).
//
// The stack composes one class per service (services/): web hosting, the API, crawling, the report path.
// Each creates its resources in the stack's own scope, so their logical IDs are those they always had.
import { join } from 'node:path';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { OperationalAlarms } from './alarms';
import { AppSecrets } from './app-secrets';
import { BlobBucket } from './blob-bucket';
import { CrawlQueue } from './crawl-queue';
import { DataTable } from './data-table';
import { MailSecret } from './mail-secret';
import { acknowledgeStackFindings } from './nag-acknowledgments';
import type { ProjectFunction } from './project-function';
import { ApiService } from './services/api-service';
import { CRAWLER_TIMEOUT, CrawlService, DEAD_LETTER_TIMEOUT } from './services/crawl-service';
import type { FunctionName } from './services/entries';
import { ReportService } from './services/report-service';
import { ScheduleService } from './services/schedule-service';
import { WebHosting } from './services/web-hosting';

export { ENTRIES, type FunctionName } from './services/entries';

export interface CspGeneratorStackProps extends StackProps {
  /** The repository root: handler entries, package-lock.json and web/dist are found from here. */
  sourceRoot: string;
  /** The built web app. Default: <sourceRoot>/web/dist. Uploaded only when it exists at synth time. */
  webDist?: string;
  /** LOG_LEVEL of every function. Default: info. */
  logLevel?: string;
  /** Crawls that run at once (each is one Chromium). Default: 5. */
  crawlerConcurrency?: number;
  /** Reserved concurrency of the report ingest function. Default: REPORT_INGEST_RESERVED_CONCURRENCY (services/report-service.ts). */
  reportIngestConcurrency?: number;
  /** The origin-verify secret version CloudFront sends (a rotation's last step). Default: the latest. */
  originVerifyVersion?: string;
  /**
   * AWS WAF with per-client rate rules in front of CloudFront. Default: true. Off (`-c waf=false`), one
   * client can again spend the functions' shared capacity; only the application's own limits remain.
   */
  waf?: boolean;
  /**
   * Opt-in: a public Function URL for reports (auth NONE), named in policies: no CloudFront or WAF request
   * charge, but no per-client limit but the app's and one reserved-concurrency pool. Default: false
   * (reports through CloudFront and WAF; the ingest URL takes only CloudFront's signed requests).
   */
  reportFunctionUrl?: boolean;
}

export class CspGeneratorStack extends Stack {
  /** The functions this synth created (a handler whose file is missing is left out, with a warning). */
  readonly functions: Partial<Record<FunctionName, ProjectFunction>> = {};
  readonly alarms: OperationalAlarms;

  constructor(scope: Construct, id: string, props: CspGeneratorStackProps) {
    // The companion stack in us-east-1 hands the web ACL and the Lambda@Edge version over (its outputs).
    super(scope, id, { crossRegionReferences: true, ...props });
    const { sourceRoot, logLevel = 'info' } = props;
    const common = { sourceRoot, logLevel };

    const { table } = new DataTable(this, 'Data');
    const secrets = new AppSecrets(this, 'Secrets');
    const { secret: mail } = new MailSecret(this, 'Mail');
    const crawl = new CrawlQueue(this, 'Crawl', {
      crawlerTimeout: CRAWLER_TIMEOUT,
      deadLetterTimeout: DEAD_LETTER_TIMEOUT,
    });
    const { bucket: blobs } = new BlobBucket(this, 'Blobs');
    const { originVerify, web } = new WebHosting(this, {
      webDist: props.webDist ?? join(sourceRoot, 'web', 'dist'),
      ...(props.originVerifyVersion ? { originVerifyVersion: props.originVerifyVersion } : {}),
      waf: props.waf !== false,
    });

    const api = new ApiService(this, {
      ...common,
      table,
      crawlQueue: crawl.queue,
      secrets,
      originVerify,
      mail,
    });
    this.functions.api = api.fn;
    const crawling = new CrawlService(this, {
      ...common,
      table,
      crawl,
      blobs,
      ...(props.crawlerConcurrency !== undefined ? { crawlerConcurrency: props.crawlerConcurrency } : {}),
    });
    Object.assign(this.functions, crawling.functions);
    const schedules = new ScheduleService(this, {
      ...common,
      table,
      crawlQueue: crawl.queue,
      secrets,
      mail,
      publicUrl: web.url,
    });
    if (schedules.fn) this.functions.scheduleDispatcher = schedules.fn;
    const reporting = new ReportService(this, {
      ...common,
      table,
      api: api.fn,
      web,
      originVerify,
      ...(props.reportIngestConcurrency !== undefined
        ? { reportIngestConcurrency: props.reportIngestConcurrency }
        : {}),
      reportFunctionUrl: props.reportFunctionUrl === true,
    });
    // After the report path's /api/uri-report, which this would otherwise take.
    web.routeToFunction('/api/*', api.url);
    Object.assign(this.functions, reporting.functions);

    const deployed = Object.fromEntries(
      Object.entries(this.functions).filter((e): e is [string, ProjectFunction] => e[1] !== undefined),
    );
    this.alarms = new OperationalAlarms(this, 'Alarms', {
      functions: deployed,
      crawlDeadLetterQueue: crawl.deadLetterQueue,
      reportDeadLetterQueue: reporting.reports.deadLetterQueue,
      reportQueue: reporting.reports.queue,
    });

    acknowledgeStackFindings(this, {
      bucketLogicalId: this.getLogicalId(web.bucket.node.defaultChild as CfnBucket),
    });

    new CfnOutput(this, 'Url', { value: web.url, description: 'The product (CloudFront)' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'TABLE_NAME for npm run admin' });
    new CfnOutput(this, 'CrawlQueueUrl', { value: crawl.queue.queueUrl });
    new CfnOutput(this, 'SecretArn', { value: secrets.secret.secretArn });
    new CfnOutput(this, 'MailSecretArn', {
      value: mail.secretArn,
      description: 'Outgoing mail: put {"smtpUrl": "smtps://…", "mailFrom": "…"} here (README)',
    });
    new CfnOutput(this, 'OriginVerifySecretArn', {
      value: originVerify.secretArn,
      description: 'For npm run rotate:origin-verify',
    });
  }
}
