// The API: one function (Hono) behind CloudFront, reachable only with CloudFront's signature. It reads and
// writes the whole table, enqueues crawls and reads the app's secrets and the mail secret.
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type FunctionUrl, FunctionUrlAuthType } from 'aws-cdk-lib/aws-lambda';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { AppSecrets } from '../app-secrets';
import { grantSecretValue, grantSend } from '../grants';
import { ProjectFunction } from '../project-function';
import { ENTRIES, type FunctionDefaults, handlerEntry } from './entries';

export interface ApiServiceProps extends FunctionDefaults {
  table: ITableV2;
  crawlQueue: Queue;
  secrets: AppSecrets;
  originVerify: Secret;
  /** The outgoing mail server (invitations, "Send test"). */
  mail: Secret;
}

/**
 * Created in the stack's own scope (not a node of its own), so its resources keep the logical IDs they had
 * when the stack held them directly: a deployed stack updates in place.
 */
export class ApiService {
  readonly fn: ProjectFunction;
  /** Callable only with CloudFront's signature (origin access control). */
  readonly url: FunctionUrl;

  constructor(scope: Construct, props: ApiServiceProps) {
    const { sourceRoot, logLevel, table, crawlQueue, secrets, originVerify, mail } = props;
    const entry = handlerEntry(scope, 'api', sourceRoot);
    if (!entry) throw new Error(`${ENTRIES.api} is missing: the stack has no API to deploy`);
    this.fn = new ProjectFunction(scope, 'Api', {
      sourceRoot,
      logLevel,
      entry,
      description: 'CSP Generator API (Hono)',
      environment: {
        CRAWL_QUEUE_URL: crawlQueue.queueUrl,
        SECRETS_ARN: secrets.secret.secretArn,
        ORIGIN_VERIFY_SECRET_ARN: originVerify.secretArn,
        MAIL_SECRET_ARN: mail.secretArn,
        // No PUBLIC_URL: the distribution depends on this function's URL. The API takes its public origin
        // from the host the viewer asked CloudFront for (functions/src/http/viewer-host.ts).
        ALLOW_PRIVATE_TARGETS: 'false',
      },
    }).bindTable(table, { accessMode: 'readWrite', indexes: true });
    grantSend(this.fn, crawlQueue);
    grantSecretValue(this.fn, secrets.secret);
    grantSecretValue(this.fn, originVerify);
    grantSecretValue(this.fn, mail);
    this.fn.node.addDependency(secrets.seeded);
    // Callable only with a signature: CloudFront's (origin access control), so only through the
    // distribution and its web ACL. There is no API Gateway, so no execute-api endpoint around them.
    this.url = this.fn.addFunctionUrl({ authType: FunctionUrlAuthType.AWS_IAM });
  }
}
