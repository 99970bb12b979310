import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { DataTable } from '../lib/data-table';
import { ProjectFunction } from '../lib/project-function';
import type { TableAccess } from '../lib/table-access';
import { makeSourceRoot, testApp } from './source-root';

const source = makeSourceRoot(['api']);
afterAll(() => source.remove());

function functionWith(access: TableAccess['accessMode'] | TableAccess) {
  const stack = new Stack(testApp(), 'Test');
  const { table } = new DataTable(stack, 'Data');
  new ProjectFunction(stack, 'Fn', {
    sourceRoot: source.root,
    entry: `${source.root}/functions/src/api/lambda.ts`,
    logLevel: 'warn',
  }).bindTable(table, typeof access === 'string' ? { accessMode: access } : access);
  return Template.fromStack(stack);
}

const actionsOf = (template: Template) =>
  Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) =>
    (
      p as { Properties: { PolicyDocument: { Statement: { Action: string | string[] }[] } } }
    ).Properties.PolicyDocument.Statement.flatMap((s) => s.Action),
  );

describe('ProjectFunction', () => {
  it('sets the project defaults: nodejs24.x, tracing, source maps, a log group with retention', () => {
    const template = functionWith('read');
    template.hasResourceProperties('AWS::Lambda::Function', {
      Runtime: 'nodejs24.x',
      TracingConfig: { Mode: 'Active' },
      Environment: {
        Variables: Match.objectLike({
          NODE_OPTIONS: '--enable-source-maps',
          LOG_LEVEL: 'warn',
          TABLE_NAME: Match.anyValue(),
        }),
      },
      LoggingConfig: { LogGroup: Match.anyValue() },
    });
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
  });

  it("bindTable({ accessMode: 'read' }) grants item reads only: no writes, no Scan, no index", () => {
    const template = functionWith('read');
    const actions = actionsOf(template);
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    const dynamo = actions.filter((a) => a.startsWith('dynamodb:'));
    expect(dynamo.filter((a) => /Put|Update|Delete|Write|Scan|\*/.test(a))).toEqual([]);
    expect(JSON.stringify(template.findResources('AWS::IAM::Policy'))).not.toContain('/index/');
    expect(JSON.stringify(functionWith({ accessMode: 'read', indexes: true }).toJSON())).toContain(
      '/index/gsi1',
    );
  });

  it('confines a function to its key prefixes with a dynamodb:LeadingKeys condition', () => {
    const template = functionWith({ accessMode: 'readWrite', leadingKeys: ['ANALYSIS#', 'RUNSLOTS#'] });
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: Match.arrayWith(['dynamodb:PutItem']),
            Condition: {
              'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ANALYSIS#*', 'RUNSLOTS#*'] },
            },
          }),
        ]),
      },
    });
  });

  it('writes only where writeLeadingKeys says; the other prefixes are read only', () => {
    const template = functionWith({
      accessMode: 'readWrite',
      indexes: true,
      leadingKeys: ['DOMAIN#', 'REPORT#'],
      writeLeadingKeys: ['REPORT#'],
    });
    const statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap(
      (p) =>
        (
          p as {
            Properties: {
              PolicyDocument: {
                Statement: { Action: string[]; Condition?: Record<string, Record<string, string[]>> }[];
              };
            };
          }
        ).Properties.PolicyDocument.Statement,
    );
    const dynamo = statements.filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    const keysOf = (s: (typeof dynamo)[number]) =>
      s.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'];
    const writing = dynamo.filter((s) => [s.Action].flat().some((a) => /Put|Update|Delete|Write/.test(a)));
    expect(writing).toHaveLength(1);
    expect(keysOf(writing[0]!)).toEqual(['REPORT#*']);
    expect(JSON.stringify(writing[0])).not.toContain('/index/');
    const reading = dynamo.filter((s) => [s.Action].flat().includes('dynamodb:Query'));
    expect(reading.map(keysOf)).toEqual([['DOMAIN#*', 'REPORT#*']]);
  });

  it("bindTable({ accessMode: 'readWrite' }) adds the writes TransactWriteItems needs", () => {
    const actions = actionsOf(functionWith('readWrite'));
    expect(actions).toEqual(
      expect.arrayContaining([
        'dynamodb:PutItem',
        'dynamodb:UpdateItem',
        'dynamodb:DeleteItem',
        'dynamodb:ConditionCheckItem',
      ]),
    );
  });
});
