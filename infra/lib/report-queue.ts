// The report queue and its dead-letter queue. A message is the accepted reports of one request (at most
// 50), sent by the ingest function before it answers 204 and aggregated in batches by the consumer.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** A batch that failed this often (a bug, not a passing throttle) waits in the dead-letter queue. */
export const REPORT_MAX_RECEIVE_COUNT = 5;

export interface ReportQueueProps {
  /** Timeout of the consumer function. */
  consumerTimeout: Duration;
}

export class ReportQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: ReportQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      // 6 × the consumer's timeout, as AWS advises for queues behind a Lambda event source.
      visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * 6),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: REPORT_MAX_RECEIVE_COUNT },
    });
  }
}
