// The report path: browsers post reports to /api/uri-report through CloudFront and its web ACL (a per-IP
// rule of their own), which reaches the ingest function's URL by origin access control only. It answers
// once a report is in the report queue; the consumer aggregates, in batches. Opt-in (reportFunctionUrl):
// a public URL named in policies instead, cheaper per report but with no per-client limit but the app's.
import { FUNCTION_KEY_PREFIXES, FUNCTION_WRITE_KEY_PREFIXES } from '@csp/shared/store/key-prefixes';
import { CfnOutput, Duration, Fn } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { FunctionUrlAuthType, HttpMethod as UrlMethod } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { grantSecretValue, grantSend } from '../grants';
import { ProjectFunction } from '../project-function';
import { ReportQueue } from '../report-queue';
import type { WebDistribution } from '../web-distribution';
import { type FunctionDefaults, type FunctionName, handlerEntry } from './entries';

const REPORT_CONSUMER_TIMEOUT = Duration.minutes(2);

/**
 * Ingest functions running at once at most: the cost ceiling of the report endpoint. With 512 MB and
 * ~20 ms a request, about 1,000 reports/s. No single client can hold it: AWS WAF lets one IP send 600
 * reports a minute (web-acl.ts), about 12 execution-seconds of the pool's 1,200 a minute (1 %), and the
 * ingest app refuses one client beyond REPORT_CLIENT_PER_MINUTE itself, in about a millisecond.
 */
export const REPORT_INGEST_RESERVED_CONCURRENCY = 20;

export interface ReportServiceProps extends FunctionDefaults {
  table: ITableV2;
  /** The API, which sends clear messages to the report queue and names the report endpoint in policies. */
  api: ProjectFunction;
  web: WebDistribution;
  originVerify: Secret;
  /** Reserved concurrency of the ingest function. Default: REPORT_INGEST_RESERVED_CONCURRENCY. */
  reportIngestConcurrency?: number;
  /** A public Function URL for reports (auth NONE), named in policies. Default: false. */
  reportFunctionUrl?: boolean;
}

/**
 * Created in the stack's own scope (not a node of its own), so its resources keep the logical IDs they had
 * when the stack held them directly: a deployed stack updates in place.
 */
export class ReportService {
  readonly reports: ReportQueue;
  /** The functions this synth created, in the order the stack lists them (a missing handler is left out). */
  readonly functions: Partial<Record<FunctionName, ProjectFunction>> = {};

  constructor(scope: Construct, props: ReportServiceProps) {
    const { sourceRoot, logLevel, table, api, web, originVerify } = props;
    const common = { sourceRoot, logLevel };
    const reports = new ReportQueue(scope, 'Reports', { consumerTimeout: REPORT_CONSUMER_TIMEOUT });
    this.reports = reports;
    // The API sends clear messages there (clearing a domain's reports, deleting a domain or a user): the
    // consumer does the deleting in the background.
    api.addEnvironment('REPORT_QUEUE_URL', reports.queue.queueUrl);
    grantSend(api, reports.queue);
    const ingestEntry = handlerEntry(scope, 'reportIngest', sourceRoot);
    if (ingestEntry) {
      const ingest = new ProjectFunction(scope, 'ReportIngest', {
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
      // Routed before the API's /api/* (the stack routes that after this), which would otherwise take it.
      web.routeToFunction('/api/uri-report', ingestUrl);
      // https://<id>.lambda-url.<region>.on.aws/ → its origin, written into policies' report-uri. Without
      // it the API names its public origin's /api/uri-report.
      if (publicUrl) {
        api.addEnvironment('REPORT_ENDPOINT_ORIGIN', `https://${Fn.select(2, Fn.split('/', ingestUrl.url))}`);
      }
      new CfnOutput(scope, 'ReportEndpoint', {
        value: publicUrl ? ingestUrl.url : `${web.url}/api/uri-report`,
        description: 'Where browsers send reports',
      });
      this.functions.reportIngest = ingest;
    }

    const consumerEntry = handlerEntry(scope, 'reportConsumer', sourceRoot);
    if (consumerEntry) {
      const consumer = new ProjectFunction(scope, 'ReportConsumer', {
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
  }
}
