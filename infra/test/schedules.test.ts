// The schedule dispatcher in the stack: one EventBridge Scheduler schedule every five minutes invoking it
// (its role may invoke that function only), the function confined to its key prefixes and to gsi3, sending
// to the crawl queue only, with an error alarm like every function; left out while its handler is missing.
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { CspGeneratorStack, type FunctionName } from '../lib/csp-generator-stack';
import { ALL_FUNCTIONS, makeSourceRoot, testApp } from './source-root';

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, unknown> };
type Resource = { Properties: Record<string, unknown> };

function synth(entries: FunctionName[]) {
  const source = makeSourceRoot(entries);
  const stack = new CspGeneratorStack(testApp(), 'Test', { sourceRoot: source.root });
  const template = Template.fromStack(stack);
  source.remove();
  return { stack, template };
}

describe('the schedule dispatcher', () => {
  let s: ReturnType<typeof synth>;
  let fnId: string;
  beforeAll(() => {
    s = synth(ALL_FUNCTIONS);
    fnId = s.stack.getLogicalId(s.stack.functions.scheduleDispatcher!.node.defaultChild as CfnFunction);
  });

  const policiesOfRole = (roleId: string) =>
    Object.values(s.template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify((p as Resource).Properties.Roles).includes(`"${roleId}"`))
      .flatMap(
        (p) =>
          (p as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument
            .Statement,
      );
  const actions = (st: Statement) => [st.Action].flat();

  it('is invoked by one Scheduler schedule, every 5 minutes, whose role may invoke only it', () => {
    const schedules = s.template.findResources('AWS::Scheduler::Schedule');
    expect(Object.keys(schedules)).toHaveLength(1);
    const schedule = Object.values(schedules)[0] as Resource;
    expect(schedule.Properties).toMatchObject({
      ScheduleExpression: 'rate(5 minutes)',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } },
    });
    const roleId = (schedule.Properties.Target as { RoleArn: { 'Fn::GetAtt': [string] } }).RoleArn[
      'Fn::GetAtt'
    ][0];
    const role = s.template.toJSON().Resources[roleId] as Resource;
    const trust = JSON.stringify(role.Properties.AssumeRolePolicyDocument);
    expect(trust).toContain('scheduler.amazonaws.com');
    expect(trust).toContain('aws:SourceAccount');
    const statements = policiesOfRole(roleId);
    expect(statements.flatMap(actions)).toEqual(['lambda:InvokeFunction']);
    expect(JSON.stringify(statements.map((st) => st.Resource))).toContain(fnId);
    expect(JSON.stringify(statements.map((st) => st.Resource))).not.toMatch(/"\*"/);
  });

  it('reads and writes only its key prefixes, queries gsi3 only, and sends only to the crawl queue', () => {
    const fn = s.template.findResources('AWS::Lambda::Function')[fnId] as Resource;
    const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const statements = policiesOfRole(roleId);
    const dynamo = statements.filter((st) => actions(st).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect(dynamo[0]!.Condition).toEqual({
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [
          'SCHEDULE#*',
          'DOMAIN#*',
          'ANALYSIS#*',
          'CRAWLQUOTA#*',
          'DOMAINRUN#*',
          'ALERT#*',
          'CONTACT#*',
          'RSTATS#*',
        ],
      },
    });
    expect(actions(dynamo[0]!)).not.toContain('dynamodb:Scan');
    const resources = JSON.stringify(dynamo[0]!.Resource);
    expect(resources).toContain('/index/gsi3');
    expect(resources).not.toMatch(/\/index\/gsi[12]/);
    // Beside the table: the crawl queue, the app secret (webhook secrets), and tracing (every function's).
    const others = statements.filter((st) => !actions(st).some((a) => /^(dynamodb|xray):/.test(a)));
    expect(others.flatMap(actions)).toContain('sqs:SendMessage');
    expect(others.flatMap(actions)).toContain('secretsmanager:GetSecretValue');
    expect(JSON.stringify(others.find((st) => actions(st).includes('sqs:SendMessage'))!.Resource)).toMatch(
      /CrawlQueue/,
    );
    expect(
      JSON.stringify(others.find((st) => actions(st).includes('secretsmanager:GetSecretValue'))!.Resource),
    ).toMatch(/Secrets/);
    expect(fn.Properties.ReservedConcurrentExecutions).toBe(1);
    const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env.CRAWL_QUEUE_URL)).toMatch(/CrawlQueue/);
    expect(env.TABLE_NAME).toBeDefined();
  });

  it('raises an alarm when it fails', () => {
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      MetricName: 'Errors',
      Namespace: 'AWS/Lambda',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }],
    });
  });

  it('is left out, with its schedule, while its handler is missing', () => {
    const without = synth(ALL_FUNCTIONS.filter((f) => f !== 'scheduleDispatcher'));
    expect(without.stack.functions.scheduleDispatcher).toBeUndefined();
    without.template.resourceCountIs('AWS::Scheduler::Schedule', 0);
  });
});
