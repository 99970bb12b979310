// Scheduled analyses: ONE EventBridge Scheduler schedule (every 5 minutes) invokes the schedule dispatcher,
// which finds the due domains with one Query and starts their analyses as the API does (functions/src/watch/).
// Chosen over one Scheduler schedule per domain: those would need a Scheduler API call (and the IAM to
// create, change and delete schedules, plus iam:PassRole) on every save, pause and deletion of a domain,
// would drift from the table when one of those calls fails, and are billed per invocation of each; a
// dispatcher keeps the schedule in the table beside the domain, costs one small Query every five minutes
// (about 8,640 invocations a month, inside the free tiers), and applies the per-user limits in one place.
// The price: a run starts up to five minutes after its time.
import { FUNCTION_KEY_PREFIXES } from '@csp/shared/store/key-prefixes';
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { AppSecrets } from '../app-secrets';
import { grantSecretValue, grantSend } from '../grants';
import { acknowledge } from '../nag-acknowledgments';
import { ProjectFunction } from '../project-function';
import { type FunctionDefaults, handlerEntry } from './entries';

/** How often the dispatcher looks for due schedules. */
export const DISPATCH_RATE = Duration.minutes(5);

export interface ScheduleServiceProps extends FunctionDefaults {
  table: ITableV2;
  crawlQueue: IQueue;
  /** The app's secrets: the tick opens webhook signing secrets with its key when it sends alerts. */
  secrets: AppSecrets;
  /** The outgoing mail server: alert e-mail. */
  mail: ISecret;
  /** The product's public address (the distribution's): alert links are made on it. */
  publicUrl: string;
}

export class ScheduleService {
  readonly fn: ProjectFunction | undefined;

  constructor(scope: Construct, props: ScheduleServiceProps) {
    const { sourceRoot, logLevel, table, crawlQueue, secrets, mail, publicUrl } = props;
    const entry = handlerEntry(scope, 'scheduleDispatcher', sourceRoot);
    if (!entry) return;
    this.fn = new ProjectFunction(scope, 'ScheduleDispatcher', {
      sourceRoot,
      logLevel,
      entry,
      description: 'CSP Generator: starts due scheduled analyses, checks report flows, sends alerts',
      memorySize: 256,
      // Well under the rate: a slow run ends before the next one starts.
      timeout: Duration.minutes(2),
      // One at a time is enough (the claim keeps two safe anyway).
      reservedConcurrentExecutions: 1,
      environment: {
        CRAWL_QUEUE_URL: crawlQueue.queueUrl,
        SECRETS_ARN: secrets.secret.secretArn,
        MAIL_SECRET_ARN: mail.secretArn,
        // Not an origin of the distribution: it may depend on the distribution's address.
        PUBLIC_URL: publicUrl,
      },
    }).bindTable(table, {
      accessMode: 'readWrite',
      // The due schedules are one gsi3 partition (functions/src/store/keys.ts); no other index.
      indexes: ['gsi3'],
      leadingKeys: FUNCTION_KEY_PREFIXES.scheduleDispatcher,
    });
    grantSend(this.fn, crawlQueue);
    grantSecretValue(this.fn, secrets.secret);
    grantSecretValue(this.fn, mail);
    this.fn.node.addDependency(secrets.seeded);
    // The schedule's own role, assumed by Scheduler for this account only, may invoke this function only.
    const role = new Role(scope, 'ScheduleDispatchRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(scope).account } },
      }),
    });
    new Schedule(scope, 'ScheduleDispatch', {
      description: 'CSP Generator: looks for domains whose scheduled analysis is due',
      schedule: ScheduleExpression.rate(DISPATCH_RATE),
      // A missed tick is not retried: the next one, five minutes later, finds the same due schedules.
      target: new LambdaInvoke(this.fn, { role, retryAttempts: 0, maxEventAge: Duration.minutes(5) }),
    });
    acknowledge(
      role,
      `AwsSolutions-IAM5[Resource::<${Stack.of(scope).getLogicalId(this.fn.node.defaultChild as CfnFunction)}.Arn>:*]`,
      "CDK's Lambda target grants the function and its versions (`arn:*`): it still reaches this one function only, which Scheduler invokes with an empty event.",
    );
  }
}
