// API Gateway access logs: one JSON line per request (route, status, latency, errors), kept a month. The
// caller's address is left out: the functions log a truncated one where they need it.
import { RemovalPolicy } from 'aws-cdk-lib';
import type { CfnStage, HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

export const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  time: '$context.requestTime',
  routeKey: '$context.routeKey',
  status: '$context.status',
  latencyMs: '$context.responseLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  error: '$context.error.message',
  responseLength: '$context.responseLength',
});

export function apiAccessLogs(scope: Construct, stage: HttpStage): LogGroup {
  const logs = new LogGroup(scope, 'ApiAccessLogs', {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  (stage.node.defaultChild as CfnStage).accessLogSettings = {
    destinationArn: logs.logGroupArn,
    format: ACCESS_LOG_FORMAT,
  };
  return logs;
}
