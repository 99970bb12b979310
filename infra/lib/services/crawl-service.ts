// Crawling: the API queues an analysis on the crawl queue; the coordinator consumes it, claims the analysis
// and runs it in the confined crawler, which writes through the crawl writer; a message that exhausted its
// deliveries ends in the dead-letter queue, which a small function turns into a failed analysis.
//
// The crawler renders hostile pages without a sandbox: whoever controls a page may hold its credentials.
// So its role has no table, queue or secret: it may invoke the crawl writer (which takes a write for an
// analysis only with that analysis' current run token) and touch the checkpoints in the blob bucket,
// whose keys are random and which it may not list (README, "Crawler confinement").
import { FUNCTION_KEY_PREFIXES, FUNCTION_WRITE_KEY_PREFIXES } from '@csp/shared/store/key-prefixes';
import { Duration, Size, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Bucket, CfnBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { CrawlQueue } from '../crawl-queue';
import { grantSend } from '../grants';
import { acknowledge } from '../nag-acknowledgments';
import { ProjectFunction } from '../project-function';
import { type FunctionDefaults, type FunctionName, handlerEntry } from './entries';

/**
 * Lambda's ceiling, for the crawler and for the coordinator that waits on it; the crawler stops before the
 * coordinator's deadline and the coordinator queues a continuation.
 */
export const CRAWLER_TIMEOUT = Duration.minutes(15);
const CRAWL_WRITER_TIMEOUT = Duration.seconds(30);
export const DEAD_LETTER_TIMEOUT = Duration.minutes(1);

/** Where the crawler's checkpoints live in the blob bucket (functions/src/crawler/crawl.ts, checkpointKey). */
const CHECKPOINT_PREFIX = 'crawls/';

/**
 * Installed next to the crawler's bundle instead of bundled: @sparticuz/chromium reads its brotli
 * archives from node_modules/@sparticuz/chromium/bin at run time, and puppeteer-core loads parts of
 * itself dynamically. Versions come from package-lock.json.
 */
const CRAWLER_NODE_MODULES = ['@sparticuz/chromium', 'puppeteer-core'];

export interface CrawlServiceProps extends FunctionDefaults {
  table: ITableV2;
  crawl: CrawlQueue;
  /** The blob bucket, for the crawler's checkpoints. */
  blobs: Bucket;
  /** Crawls that run at once (each is one Chromium). Default: 5. */
  crawlerConcurrency?: number;
}

/**
 * Created in the stack's own scope (not a node of its own), so its resources keep the logical IDs they had
 * when the stack held them directly: a deployed stack updates in place.
 */
export class CrawlService {
  /** The functions this synth created, in the order the stack lists them (a missing handler is left out). */
  readonly functions: Partial<Record<FunctionName, ProjectFunction>> = {};

  constructor(scope: Construct, props: CrawlServiceProps) {
    const { sourceRoot, logLevel, table, crawl, blobs } = props;
    const common = { sourceRoot, logLevel };
    const crawlWriterEntry = handlerEntry(scope, 'crawlWriter', sourceRoot);
    const crawlerEntry = handlerEntry(scope, 'crawler', sourceRoot);
    const coordinatorEntry = handlerEntry(scope, 'crawlCoordinator', sourceRoot);
    if (crawlWriterEntry && crawlerEntry && coordinatorEntry) {
      const writer = new ProjectFunction(scope, 'CrawlWriter', {
        ...common,
        entry: crawlWriterEntry,
        description: "CSP Generator: writes a crawler run's progress and result, given the run's token",
        memorySize: 512,
        timeout: CRAWL_WRITER_TIMEOUT,
      }).bindTable(table, {
        accessMode: 'readWrite',
        // The domain's saved configurations (drift) are listed through an index.
        indexes: true,
        leadingKeys: FUNCTION_KEY_PREFIXES.crawlWriter,
        writeLeadingKeys: FUNCTION_WRITE_KEY_PREFIXES.crawlWriter,
      });

      const crawler = new ProjectFunction(scope, 'Crawler', {
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
        `AwsSolutions-IAM5[Resource::<${Stack.of(scope).getLogicalId(blobs.node.defaultChild as CfnBucket)}.Arn>/${CHECKPOINT_PREFIX}*]`,
        "Crawl checkpoints are keyed by a random id per analysis that only that analysis' runs are given, and the crawler may not list the bucket: the wildcard reaches only keys it already knows.",
      );

      // The coordinator consumes the crawl queue, claims analyses and invokes the crawler with one job at a
      // time.
      const coordinator = new ProjectFunction(scope, 'CrawlCoordinator', {
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

    const deadLetterEntry = handlerEntry(scope, 'crawlDeadLetter', sourceRoot);
    if (deadLetterEntry) {
      const deadLetter = new ProjectFunction(scope, 'CrawlDeadLetter', {
        ...common,
        entry: deadLetterEntry,
        description: 'CSP Generator: fails the analysis of a crawl message that exhausted its deliveries',
        memorySize: 256,
        timeout: DEAD_LETTER_TIMEOUT,
      }).bindTable(table, { accessMode: 'readWrite', leadingKeys: FUNCTION_KEY_PREFIXES.crawlDeadLetter });
      deadLetter.addEventSource(new SqsEventSource(crawl.deadLetterQueue, { batchSize: 10 }));
      this.functions.crawlDeadLetter = deadLetter;
    }
  }
}
