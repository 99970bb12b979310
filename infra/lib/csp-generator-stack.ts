// The product in AWS (DESIGN.md, "Shape"): CloudFront with AWS WAF → S3 web app and the Function URLs of
// two Lambdas (api, report-ingest), reachable only through CloudFront (origin access control) → one
// DynamoDB table; the API enqueues crawls on SQS for the crawl coordinator, which runs each in the confined
// crawler Lambda (it writes through the crawl writer); failed jobs end in a dead-letter queue that a small
// Lambda turns into failed analyses. What CloudFront needs from us-east-1 (the web ACL, the Lambda@Edge body
// hash) is in this stack when it is there, else in a companion stack there (`<id>-edge`, deployed first by
// the same `cdk deploy --all`).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FUNCTION_KEY_PREFIXES, FUNCTION_WRITE_KEY_PREFIXES } from '@csp/shared/store/key-prefixes';
import {
  Annotations,
  CfnOutput,
  Duration,
  Fn,
  Size,
  Stack,
  type StackProps,
  Token,
  Validations,
} from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, FunctionUrlAuthType, HttpMethod as UrlMethod } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { OperationalAlarms } from './alarms';
import { AppSecrets } from './app-secrets';
import { BlobBucket } from './blob-bucket';
import { CrawlQueue } from './crawl-queue';
import { DataTable } from './data-table';
import { EdgeProtection } from './edge-protection';
import { grantSecretValue, grantSend } from './grants';
import { acknowledge, acknowledgeStackFindings, STACK_ACKNOWLEDGMENTS } from './nag-acknowledgments';
import { ProjectFunction } from './project-function';
import { ReportQueue } from './report-queue';
import { WebDistribution } from './web-distribution';

/** Handler files, relative to the repository root. Each exports `handler`. */
export const ENTRIES = {
  api: 'functions/src/api/lambda.ts',
  crawlCoordinator: 'functions/src/crawler/coordinator-lambda.ts',
  crawler: 'functions/src/crawler/lambda.ts',
  crawlWriter: 'functions/src/crawl-writer/lambda.ts',
  crawlDeadLetter: 'functions/src/queue/dead-letter-lambda.ts',
  reportIngest: 'functions/src/report-ingest/lambda.ts',
  reportConsumer: 'functions/src/report-ingest/consumer-lambda.ts',
} as const;
export type FunctionName = keyof typeof ENTRIES;

/**
 * Lambda's ceiling, for the crawler and for the coordinator that waits on it; the crawler stops before the
 * coordinator's deadline and the coordinator queues a continuation.
 */
export const CRAWLER_TIMEOUT = Duration.minutes(15);
const CRAWL_WRITER_TIMEOUT = Duration.seconds(30);
const DEAD_LETTER_TIMEOUT = Duration.minutes(1);
const REPORT_CONSUMER_TIMEOUT = Duration.minutes(2);

/** Where the crawler's checkpoints live in the blob bucket (functions/src/crawler/crawl.ts, checkpointKey). */
const CHECKPOINT_PREFIX = 'crawls/';

/**
 * Ingest functions running at once at most: the cost ceiling of the report endpoint. With 512 MB and
 * ~20 ms a request, about 1,000 reports/s. No single client can hold it: AWS WAF lets one IP send 600
 * reports a minute (web-acl.ts), about 12 execution-seconds of the pool's 1,200 a minute (1 %), and the
 * ingest app refuses one client beyond REPORT_CLIENT_PER_MINUTE itself, in about a millisecond.
 */
export const REPORT_INGEST_RESERVED_CONCURRENCY = 20;

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
    const crawl = new CrawlQueue(this, 'Crawl', {
      crawlerTimeout: CRAWLER_TIMEOUT,
      deadLetterTimeout: DEAD_LETTER_TIMEOUT,
    });
    const { bucket: blobs } = new BlobBucket(this, 'Blobs');

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
    const edge = this.edgeProtection(scope, id, props.waf !== false);
    const web = new WebDistribution(this, 'Web', {
      bodyHash: edge.bodyHash,
      originVerify,
      ...(props.originVerifyVersion ? { originVerifyVersion: props.originVerifyVersion } : {}),
      ...(edge.webAcl ? { webAclArn: edge.webAcl.acl.attrArn } : {}),
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
        // No PUBLIC_URL: the distribution depends on this function's URL. The API takes its public origin
        // from the host the viewer asked CloudFront for (functions/src/http/viewer-host.ts).
        ALLOW_PRIVATE_TARGETS: 'false',
      },
    }).bindTable(table, { accessMode: 'readWrite', indexes: true });
    grantSend(api, crawl.queue);
    grantSecretValue(api, secrets.secret);
    grantSecretValue(api, originVerify);
    api.node.addDependency(secrets.seeded);
    // Callable only with a signature: CloudFront's (origin access control), so only through the
    // distribution and its web ACL. There is no API Gateway, so no execute-api endpoint around them.
    const apiUrl = api.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });
    this.functions.api = api;

    // --- Crawl: coordinator, crawler, writer -----------------------------------------------------------
    // The crawler renders hostile pages without a sandbox: whoever controls a page may hold its credentials.
    // So its role has no table, queue or secret: it may invoke the crawl writer (which takes a write for an
    // analysis only with that analysis' current run token) and touch the checkpoints in the blob bucket,
    // whose keys are random and which it may not list. The coordinator consumes the crawl queue, claims
    // analyses and invokes the crawler with one job at a time (README, "Crawler confinement").
    const crawlWriterEntry = this.entry('crawlWriter', sourceRoot);
    const crawlerEntry = this.entry('crawler', sourceRoot);
    const coordinatorEntry = this.entry('crawlCoordinator', sourceRoot);
    if (crawlWriterEntry && crawlerEntry && coordinatorEntry) {
      const writer = new ProjectFunction(this, 'CrawlWriter', {
        ...common,
        entry: crawlWriterEntry,
        description: "CSP Generator: writes a crawler run's progress and result, given the run's token",
        memorySize: 512,
        timeout: CRAWL_WRITER_TIMEOUT,
      }).bindTable(table, { accessMode: 'readWrite', leadingKeys: FUNCTION_KEY_PREFIXES.crawlWriter });

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
          BLOB_BUCKET: blobs.bucketName,
          CRAWL_WRITER_FUNCTION: writer.functionName,
        },
        bundling: { externalModules: CRAWLER_NODE_MODULES, nodeModules: CRAWLER_NODE_MODULES },
      });
      crawler.addToRolePolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [writer.functionArn] }),
      );
      // The three object calls of s3-blob-store.ts on the checkpoints only; no ListBucket, so a key cannot be
      // found, only known (a missing one reads as AccessDenied, which the crawler takes for absent).
      crawler.addToRolePolicy(
        new PolicyStatement({
          actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
          resources: [blobs.arnForObjects(`${CHECKPOINT_PREFIX}*`)],
        }),
      );
      acknowledge(
        crawler,
        `AwsSolutions-IAM5[Resource::<${this.getLogicalId(blobs.node.defaultChild as CfnBucket)}.Arn>/${CHECKPOINT_PREFIX}*]`,
        "Crawl checkpoints are keyed by a random id per analysis that only that analysis' runs are given, and the crawler may not list the bucket: the wildcard reaches only keys it already knows.",
      );

      const coordinator = new ProjectFunction(this, 'CrawlCoordinator', {
        ...common,
        entry: coordinatorEntry,
        description: 'CSP Generator: claims each queued analysis and runs it in the crawler',
        // It waits on the crawler: the same ceiling, and little memory (its cost while it waits).
        memorySize: 256,
        timeout: CRAWLER_TIMEOUT,
        environment: {
          CRAWL_QUEUE_URL: crawl.queue.queueUrl,
          CRAWLER_FUNCTION: crawler.functionName,
        },
      }).bindTable(table, { accessMode: 'readWrite', leadingKeys: FUNCTION_KEY_PREFIXES.crawlCoordinator });
      grantSend(coordinator, crawl.queue); // continuations, and queued analyses looking again
      coordinator.addToRolePolicy(
        new PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [crawler.functionArn] }),
      );
      coordinator.addEventSource(
        new SqsEventSource(crawl.queue, {
          batchSize: 1,
          reportBatchItemFailures: true,
          // Caps concurrent crawls at the event source, so the poller never invokes into throttling.
          maxConcurrency: props.crawlerConcurrency ?? 5,
        }),
      );
      this.functions.crawlWriter = writer;
      this.functions.crawler = crawler;
      this.functions.crawlCoordinator = coordinator;
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
    // Browsers post reports to /api/uri-report through CloudFront and its web ACL (a per-IP rule of their
    // own), which reaches the ingest function's URL by origin access control only. It answers once a
    // report is in the report queue; the consumer aggregates. Opt-in (-c reportFunctionUrl=true): a public
    // URL named in policies instead, cheaper per report but with no per-client limit but the app's.
    const reports = new ReportQueue(this, 'Reports', { consumerTimeout: REPORT_CONSUMER_TIMEOUT });
    // The API sends clear messages there (clearing a domain's reports, deleting a domain or a user): the
    // consumer does the deleting in the background.
    api.addEnvironment('REPORT_QUEUE_URL', reports.queue.queueUrl);
    grantSend(api, reports.queue);
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
        // The cost ceiling of the report endpoint (REPORT_INGEST_RESERVED_CONCURRENCY says how it is sized).
        reservedConcurrentExecutions: props.reportIngestConcurrency ?? REPORT_INGEST_RESERVED_CONCURRENCY,
        environment: {
          REPORT_QUEUE_URL: reports.queue.queueUrl,
          // Through CloudFront, the viewer's address comes from a header only this secret makes trusted.
          ORIGIN_VERIFY_SECRET_ARN: originVerify.secretArn,
        },
      }).bindTable(table, { accessMode: 'read', leadingKeys: FUNCTION_KEY_PREFIXES.reportIngest });
      grantSend(ingest, reports.queue);
      grantSecretValue(ingest, originVerify);
      const publicUrl = props.reportFunctionUrl === true;
      const ingestUrl = ingest.addFunctionUrl(
        publicUrl
          ? {
              authType: FunctionUrlAuthType.NONE,
              cors: {
                allowedOrigins: ['*'],
                allowedMethods: [UrlMethod.POST],
                allowedHeaders: ['content-type'],
              },
            }
          : { authType: FunctionUrlAuthType.AWS_IAM },
      );
      web.routeToFunction('/api/uri-report', ingestUrl);
      // https://<id>.lambda-url.<region>.on.aws/ → its origin, written into policies' report-uri. Without
      // it the API names its public origin's /api/uri-report.
      if (publicUrl) {
        api.addEnvironment('REPORT_ENDPOINT_ORIGIN', `https://${Fn.select(2, Fn.split('/', ingestUrl.url))}`);
      }
      new CfnOutput(this, 'ReportEndpoint', {
        value: publicUrl ? ingestUrl.url : `${web.url}/api/uri-report`,
        description: 'Where browsers send reports',
      });
      this.functions.reportIngest = ingest;
    }
    web.routeToFunction('/api/*', apiUrl);

    const consumerEntry = this.entry('reportConsumer', sourceRoot);
    if (consumerEntry) {
      const consumer = new ProjectFunction(this, 'ReportConsumer', {
        ...common,
        entry: consumerEntry,
        description: 'CSP Generator: stores violation reports and counts them, in batches',
        memorySize: 512,
        timeout: REPORT_CONSUMER_TIMEOUT,
        // A clear message with more to delete goes back into this queue for the next invocation.
        environment: { REPORT_QUEUE_URL: reports.queue.queueUrl },
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
      grantSend(consumer, reports.queue);
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

  /**
   * The web ACL and the Lambda@Edge body hash, which CloudFront takes from us-east-1 only: in this stack
   * when it is there (or its region is left to deploy time, which must then be us-east-1), else in a
   * companion stack `<id>-edge` in us-east-1 that this one depends on, so `cdk deploy --all` deploys it
   * first. Its two values cross regions as its outputs (CDK's crossRegionReferences: Fn::GetStackOutput).
   */
  private edgeProtection(scope: Construct, id: string, waf: boolean): EdgeProtection {
    if (Token.isUnresolved(this.region) || this.region === 'us-east-1') {
      return new EdgeProtection(this, 'Edge', { waf });
    }
    const companion = new Stack(scope, `${id}-edge`, {
      description: 'CSP Generator: what CloudFront takes from us-east-1 (AWS WAF web ACL, Lambda@Edge)',
      env: { account: this.account, region: 'us-east-1' },
      crossRegionReferences: true,
    });
    this.addStackDependency(companion);
    for (const a of STACK_ACKNOWLEDGMENTS) Validations.of(companion).acknowledge(a);
    return new EdgeProtection(companion, 'Edge', { waf });
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
