// What wakes someone up: work that failed for good (a message in either dead-letter queue), reports
// waiting too long, and any function erroring or being throttled. Every alarm goes to one SNS topic; its
// e-mail subscription is the AlarmEmail deploy parameter (none when left empty).
import { CfnCondition, CfnParameter, Duration, Fn } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, type IMetric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { CfnSubscription, Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

/** Reports older than this in the queue mean the consumer is not keeping up (or is failing). */
export const REPORT_QUEUE_MAX_AGE = Duration.minutes(10);

export interface OperationalAlarmsProps {
  functions: Record<string, IFunction>;
  crawlDeadLetterQueue: IQueue;
  reportDeadLetterQueue: IQueue;
  reportQueue: IQueue;
}

export class OperationalAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: OperationalAlarmsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Topic', { displayName: 'CSP Generator alarms', enforceSSL: true });
    const email = new CfnParameter(scope, 'AlarmEmail', {
      type: 'String',
      default: '',
      description: 'E-mail address that receives the alarms (confirm the subscription mail). Empty: none.',
    });
    const hasEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(email.valueAsString, '')),
    });
    const subscription = new CfnSubscription(this, 'Email', {
      topicArn: this.topic.topicArn,
      protocol: 'email',
      endpoint: email.valueAsString,
    });
    subscription.cfnOptions.condition = hasEmail;

    const add = (name: string, metric: IMetric, threshold: number, what: string) => {
      const alarm = new Alarm(this, name, {
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: what,
      });
      alarm.addAlarmAction(new SnsAction(this.topic));
      this.alarms.push(alarm);
    };

    const period = Duration.minutes(5);
    add(
      'CrawlDeadLetters',
      props.crawlDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      1,
      'A crawl failed every delivery and reached the dead-letter queue.',
    );
    add(
      'ReportDeadLetters',
      props.reportDeadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      1,
      'A batch of violation reports failed every delivery: they wait in the dead-letter queue.',
    );
    add(
      'ReportQueueAge',
      props.reportQueue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
      REPORT_QUEUE_MAX_AGE.toSeconds(),
      `Violation reports have waited over ${REPORT_QUEUE_MAX_AGE.toMinutes()} minutes to be stored.`,
    );
    for (const [name, fn] of Object.entries(props.functions)) {
      const label = name[0]!.toUpperCase() + name.slice(1);
      add(`${label}Errors`, fn.metricErrors({ period, statistic: 'Sum' }), 1, `The ${name} function failed.`);
      add(
        `${label}Throttles`,
        fn.metricThrottles({ period, statistic: 'Sum' }),
        1,
        `The ${name} function was throttled (concurrency ceiling reached).`,
      );
    }
  }
}
