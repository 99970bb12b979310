// The crawl queue and its dead-letter queue. A message is one crawl job or one continuation of it.
import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export const MAX_RECEIVE_COUNT = 3;

export interface CrawlQueueProps {
  /** Timeout of the function that consumes the queue (the crawl coordinator, which waits on the crawler). */
  crawlerTimeout: Duration;
  /** Timeout of the function that consumes the dead-letter queue. */
  deadLetterTimeout: Duration;
}

/**
 * Visibility timeout: 6 × the consumer's timeout, as AWS advises for queues behind a Lambda event source.
 * It must be at least 1× (a message must not reappear while a crawl still runs), and the extra lets the
 * poller retry a throttled invocation before the message reappears: a crawler is the function most
 * likely to be throttled (new accounts have a low concurrency quota), and each reappearance counts as a
 * receive, so with 1× a throttled job could reach the dead-letter queue without ever running. The price
 * is a slow retry after a hard crash (90 min); the crawler avoids hard timeouts by design, since it stops
 * within its time budget and sends a continuation.
 */
const visibilityFor = (timeout: Duration) => Duration.seconds(timeout.toSeconds() * 6);

export class CrawlQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: CrawlQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // Longer than the source queue's retention: a message keeps its first enqueue time when it moves.
      retentionPeriod: Duration.days(14),
      visibilityTimeout: visibilityFor(props.deadLetterTimeout),
    });
    this.queue = new Queue(this, 'Queue', {
      // SSE-SQS: encrypted at rest with no KMS key policy to manage for the event source.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      visibilityTimeout: visibilityFor(props.crawlerTimeout),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
  }
}
