// The product in AWS, one stack (DESIGN.md, "Shape"): CloudFront → S3 web app and HTTP API → Lambdas
// (api, report-ingest) → one DynamoDB table; the API enqueues crawls on SQS for the crawler Lambda, whose
// failed jobs end in a dead-letter queue that a small Lambda turns into failed analyses.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FUNCTION_KEY_PREFIXES, FUNCTION_WRITE_KEY_PREFIXES } from '@csp/shared/store/key-prefixes';
import { Annotations, CfnOutput, Duration, Fn, Size, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, FunctionUrlAuthType, HttpMethod as UrlMethod } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { OperationalAlarms } from './alarms';
import { apiAccessLogs } from './api-access-logs';
import { AppSecrets } from './app-secrets';
import { BlobBucket } from './blob-bucket';
import { CrawlQueue } from './crawl-queue';
import { DataTable } from './data-table';
import { grantSecretValue, grantSend } from './grants';
import { acknowledge, acknowledgeStackFindings } from './nag-acknowledgments';
import { ProjectFunction } from './project-function';
import { ReportQueue } from './report-queue';
import { applyThrottles, REPORT_INGEST_RESERVED_CONCURRENCY, splitRoute } from './throttles';
import { WebAcl } from './web-acl';
import { WebDistribution } from './web-distribution';

/** Handler files, relative to the repository root. Each exports `handler`. */
export const ENTRIES = {
  api: 'functions/src/api/lambda.ts',
  crawler: 'functions/src/crawler/lambda.ts',
  crawlDeadLetter: 'functions/src/queue/dead-letter-lambda.ts',
  reportIngest: 'functions/src/report-ingest/lambda.ts',
  reportConsumer: 'functions/src/report-ingest/consumer-lambda.ts',
} as const;
export type FunctionName = keyof typeof ENTRIES;

/** Lambda's ceiling; the crawler stops before it and re-enqueues a continuation. */
export const CRAWLER_TIMEOUT = Duration.minutes(15);
const DEAD_LETTER_TIMEOUT = Duration.minutes(1);
const REPORT_CONSUMER_TIMEOUT = Duration.minutes(2);

/**
 * Installed next to the crawler's bundle instead of bundled: @sparticuz/chromium reads its brotli
 * archives from node_modules/@sparticuz/chromium/bin at run time, and puppeteer-core loads parts of
 * itself dynamically. Versions come from package-lock.json.
 */
const CRAWLER_NODE_MODULES = ['@sparticuz/chromium', 'puppeteer-core'];

export interface CspGeneratorStackProps extends StackProps {
  /** The repository root: handler entries, package-lock.json and web/dist are found from here. */
  sourceRoot: string;
  /** The built web app. Default: <sourceRoot>/web/dist. Uploaded only when it exists at synth time. */
  webDist?: string;
  /** LOG_LEVEL of every function. Default: info. */
  logLevel?: string;
  /** Crawls that run at once (each is one Chromium). Default: 5. */
  crawlerConcurrency?: number;
  /** Reserved concurrency of the report ingest function. Default: REPORT_INGEST_RESERVED_CONCURRENCY. */
  reportIngestConcurrency?: number;
  /** The origin-verify secret version CloudFront sends (a rotation's last step). Default: the latest. */
  originVerifyVersion?: string;
  /** AWS WAF with rate-based rules in front of CloudFront (a fixed monthly cost; us-east-1 only). */
  waf?: boolean;
  /** Expose the report function at its own Function URL and name it in policies. Default: true. */
  reportFunctionUrl?: boolean;
}

export class CspGeneratorStack extends Stack {
  /** The functions this synth created (a handler whose file is missing is left out, with a warning). */
  readonly functions: Partial<Record<FunctionName, ProjectFunction>> = {};
  readonly alarms: OperationalAlarms;

  constructor(scope: Construct, id: string, props: CspGeneratorStackProps) {
    super(scope, id, props);
    const { sourceRoot, logLevel = 'info' } = props;
    const common = { sourceRoot, logLevel };

    const { table } = new DataTable(this, 'Data');
    const secrets = new AppSecrets(this, 'Secrets');
    const crawl = new CrawlQueue(this, 'Crawl', {
      crawlerTimeout: CRAWLER_TIMEOUT,
      deadLetterTimeout: DEAD_LETTER_TIMEOUT,
    });
    const { bucket: blobs } = new BlobBucket(this, 'Blobs');

    const httpApi = new HttpApi(this, 'HttpApi', {
      description: 'CSP Generator API; reached through CloudFront on /api/*',
      createDefaultStage: false,
    });
    // Ceilings per route (throttles.ts): sign-in and the challenge far tighter than reads.
    const stage = httpApi.addStage('DefaultStage', { stageName: '$default', autoDeploy: true });
    applyThrottles(stage);
    apiAccessLogs(this, stage);

    // Shared by CloudFront (as an origin header) and the API (which refuses requests without it). JSON with
    // `current` (sent) and `previous` (still accepted): rotation is `npm run rotate:origin-verify`, then a
    // deploy with the version it prints (README, "Rotating the origin-verify secret").
    const originVerify = new Secret(this, 'OriginVerify', {
      description: 'CSP Generator: header value CloudFront sends to the API ({current, previous})',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ previous: '' }),
        generateStringKey: 'current',
        excludePunctuation: true,
        passwordLength: 48,
      },
    });
    const web = new WebDistribution(this, 'Web', {
      api: httpApi,
      originVerify,
      ...(props.originVerifyVersion ? { originVerifyVersion: props.originVerifyVersion } : {}),
      ...(props.waf ? { webAclArn: new WebAcl(this, 'Waf').acl.attrArn } : {}),
      webDist: props.webDist ?? join(sourceRoot, 'web', 'dist'),
    });
    if (!web.deploysWebApp) {
      Annotations.of(this).addWarningV2(
        'csp:web-dist-missing',
        'web/dist does not exist: the web app is not uploaded. Run `npm run build:web` before `cdk deploy`.',
      );
    }

    // --- API -------------------------------------------------------------------------------------------
    const apiEntry = this.entry('api', sourceRoot);
    if (!apiEntry) throw new Error(`${ENTRIES.api} is missing: the stack has no API to deploy`);
    const api = new ProjectFunction(this, 'Api', {
      ...common,
      entry: apiEntry,
      description: 'CSP Generator API (Hono)',
      environment: {
        CRAWL_QUEUE_URL: crawl.queue.queueUrl,
        SECRETS_ARN: secrets.secret.secretArn,
        ORIGIN_VERIFY_SECRET_ARN: originVerify.secretArn,
        PUBLIC_URL: web.url,
        ALLOW_PRIVATE_TARGETS: 'false',
      },
    }).bindTable(table, { accessMode: 'readWrite', indexes: true });
    grantSend(api, crawl.queue);
    grantSecretValue(api, secrets.secret);
    grantSecretValue(api, originVerify);
    api.node.addDependency(secrets.seeded);
    const apiIntegration = new HttpLambdaIntegration('ApiIntegration', api);
    httpApi.addRoutes({ path: '/api/{proxy+}', methods: [HttpMethod.ANY], integration: apiIntegration });
    // Routes of their own only so that each gets its own throttle; the same function answers them.
    for (const route of ['POST /api/login', 'POST /api/register', 'GET /api/altcha-challenge'] as const) {
      const { method, path } = splitRoute(route);
      httpApi.addRoutes({ path, methods: [method as HttpMethod], integration: apiIntegration });
    }
    this.functions.api = api;

    // --- Crawler ---------------------------------------------------------------------------------------
    const crawlerEntry = this.entry('crawler', sourceRoot);
    if (crawlerEntry) {
      const crawler = new ProjectFunction(this, 'Crawler', {
        ...common,
        entry: crawlerEntry,
        description: 'CSP Generator crawler (puppeteer-core + @sparticuz/chromium)',
        // The Chromium build in the @sparticuz/chromium npm package is x86-64 (checked: ELF machine 0x3e).
        architecture: Architecture.X86_64,
        // Chromium with several pages open; more memory also buys CPU (about 1.7 vCPU at 3008 MB).
        memorySize: 3008,
        timeout: CRAWLER_TIMEOUT,
        // Chromium unpacks to /tmp (about 500 MB), plus its profile and disk cache.
        ephemeralStorageSize: Size.gibibytes(2),
        environment: {
          ALLOW_PRIVATE_TARGETS: 'false',
          CRAWL_QUEUE_URL: crawl.queue.queueUrl,
          BLOB_BUCKET: blobs.bucketName,
          // The report-uri of the policies it generates points at our own /api/uri-report.
          PUBLIC_URL: web.url,
        },
        bundling: { externalModules: CRAWLER_NODE_MODULES, nodeModules: CRAWLER_NODE_MODULES },
        // It runs a browser on untrusted pages: analyses, its run slots and achievements, nothing else.
      }).bindTable(table, { accessMode: 'readWrite', leadingKeys: FUNCTION_KEY_PREFIXES.crawler });
      grantSend(crawler, crawl.queue); // continuations
      // The three object calls of s3-blob-store.ts, and ListBucket so a missing blob is NoSuchKey (null),
      // not AccessDenied.
      crawler.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
          resources: [blobs.arnForObjects('*')],
        }),
      );
      crawler.addToRolePolicy(
        new PolicyStatement({ actions: ['s3:ListBucket'], resources: [blobs.bucketArn] }),
      );
      acknowledge(
        crawler,
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(blobs.node.defaultChild as CfnBucket)}.Arn>/*]`,
        "The crawler's blobs are keyed by analysis (crawl state, artefacts): any object of its own private bucket.",
      );
      crawler.addEventSource(
        new SqsEventSource(crawl.queue, {
          batchSize: 1,
          reportBatchItemFailures: true,
          // Caps concurrent crawls at the event source, so the poller never invokes into throttling.
          maxConcurrency: props.crawlerConcurrency ?? 5,
        }),
      );
      this.functions.crawler = crawler;
    }

    // --- Crawl dead letters ----------------------------------------------------------------------------
    const deadLetterEntry = this.entry('crawlDeadLetter', sourceRoot);
    if (deadLetterEntry) {
      const deadLetter = new ProjectFunction(this, 'CrawlDeadLetter', {
        ...common,
        entry: deadLetterEntry,
        description: 'CSP Generator: fails the analysis of a crawl message that exhausted its deliveries',
        memorySize: 256,
        timeout: DEAD_LETTER_TIMEOUT,
      }).bindTable(table, { accessMode: 'readWrite', leadingKeys: FUNCTION_KEY_PREFIXES.crawlDeadLetter });
      deadLetter.addEventSource(new SqsEventSource(crawl.deadLetterQueue, { batchSize: 10 }));
      this.functions.crawlDeadLetter = deadLetter;
    }

    // --- Report ingestion ------------------------------------------------------------------------------
    // Browsers post reports to the ingest function's own URL (a Function URL: no CloudFront or API Gateway
    // request charge, which alone would cost $1 per million each); /api/uri-report through CloudFront
    // reaches the same function. It answers once a report is in the report queue; the consumer aggregates.
    const reports = new ReportQueue(this, 'Reports', { consumerTimeout: REPORT_CONSUMER_TIMEOUT });
    const ingestEntry = this.entry('reportIngest', sourceRoot);
    if (ingestEntry) {
      const ingest = new ProjectFunction(this, 'ReportIngest', {
        ...common,
        entry: ingestEntry,
        description: 'CSP Generator: receives CSP violation reports',
        // It answers every browser's report: its package stays small (under 300 KB zipped, its own SDK
        // bundled, so nothing depends on the runtime's) by shipping without source maps.
        sourceMaps: false,
        memorySize: 512,
        timeout: Duration.seconds(10),
        // The cost ceiling of the report endpoint (its Function URL has no throttle of its own).
        reservedConcurrentExecutions: props.reportIngestConcurrency ?? REPORT_INGEST_RESERVED_CONCURRENCY,
        environment: {
          PUBLIC_URL: web.url,
          REPORT_QUEUE_URL: reports.queue.queueUrl,
          // Through CloudFront, the viewer's address comes from a header only this secret makes trusted.
          ORIGIN_VERIFY_SECRET_ARN: originVerify.secretArn,
        },
      }).bindTable(table, { accessMode: 'read', leadingKeys: FUNCTION_KEY_PREFIXES.reportIngest });
      grantSend(ingest, reports.queue);
      grantSecretValue(ingest, originVerify);
      // Its own URL (the cheaper path: no CloudFront or API Gateway request charge) unless the deployment
      // asks for reports through CloudFront only (-c reportFunctionUrl=false); the report-uri of generated
      // policies names whichever is deployed.
      const ingestUrl =
        props.reportFunctionUrl === false
          ? null
          : ingest.addFunctionUrl({
              authType: FunctionUrlAuthType.NONE,
              cors: {
                allowedOrigins: ['*'],
                allowedMethods: [UrlMethod.POST],
                allowedHeaders: ['content-type'],
              },
            });
      // https://<id>.lambda-url.<region>.on.aws/ → its origin. Without it the API falls back to PUBLIC_URL.
      if (ingestUrl) {
        api.addEnvironment('REPORT_ENDPOINT_ORIGIN', `https://${Fn.select(2, Fn.split('/', ingestUrl.url))}`);
      }
      // A more specific route than /api/{proxy+}, so API Gateway picks it first.
      httpApi.addRoutes({
        path: '/api/uri-report',
        methods: [HttpMethod.ANY],
        integration: new HttpLambdaIntegration('ReportIngestIntegration', ingest),
      });
      new CfnOutput(this, 'ReportEndpoint', {
        value: ingestUrl ? ingestUrl.url : `${web.url}/api/uri-report`,
        description: 'Where browsers send reports',
      });
      this.functions.reportIngest = ingest;
    }
    const consumerEntry = this.entry('reportConsumer', sourceRoot);
    if (consumerEntry) {
      const consumer = new ProjectFunction(this, 'ReportConsumer', {
        ...common,
        entry: consumerEntry,
        description: 'CSP Generator: stores violation reports and counts them, in batches',
        memorySize: 512,
        timeout: REPORT_CONSUMER_TIMEOUT,
      }).bindTable(table, {
        accessMode: 'readWrite',
        indexes: true,
        leadingKeys: FUNCTION_KEY_PREFIXES.reportConsumer,
        writeLeadingKeys: FUNCTION_WRITE_KEY_PREFIXES.reportConsumer,
      });
      consumer.addEventSource(
        new SqsEventSource(reports.queue, {
          // Up to 1,000 messages or 5 s, whichever first: one counter update per group per batch.
          batchSize: 1000,
          maxBatchingWindow: Duration.seconds(5),
          reportBatchItemFailures: true,
          // Hot domains are sharded in the table; a few consumers at once are plenty.
          maxConcurrency: 4,
        }),
      );
      this.functions.reportConsumer = consumer;
    }

    const deployed = Object.fromEntries(
      Object.entries(this.functions).filter((e): e is [string, ProjectFunction] => e[1] !== undefined),
    );
    this.alarms = new OperationalAlarms(this, 'Alarms', {
      functions: deployed,
      crawlDeadLetterQueue: crawl.deadLetterQueue,
      reportDeadLetterQueue: reports.deadLetterQueue,
      reportQueue: reports.queue,
    });

    acknowledgeStackFindings(this, {
      bucketLogicalId: this.getLogicalId(web.bucket.node.defaultChild as CfnBucket),
    });

    new CfnOutput(this, 'Url', { value: web.url, description: 'The product (CloudFront)' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'TABLE_NAME for npm run admin' });
    new CfnOutput(this, 'CrawlQueueUrl', { value: crawl.queue.queueUrl });
    new CfnOutput(this, 'SecretArn', { value: secrets.secret.secretArn });
    new CfnOutput(this, 'OriginVerifySecretArn', {
      value: originVerify.secretArn,
      description: 'For npm run rotate:origin-verify',
    });
  }

  /** The absolute path of a handler, or undefined (with a synth warning) while its file does not exist. */
  private entry(name: FunctionName, sourceRoot: string): string | undefined {
    const path = join(sourceRoot, ENTRIES[name]);
    if (existsSync(path)) return path;
    Annotations.of(this).addWarningV2(
      `csp:missing-entry:${name}`,
      `${ENTRIES[name]} does not exist: the ${name} function is left out of this synth`,
    );
    return undefined;
  }
}
