// Outgoing mail in the stack: one mail secret, made without any credential in the template, whose ARN the
// functions that send mail (the API: invitations; the schedule dispatcher: alert e-mail) get as
// MAIL_SECRET_ARN with GetSecretValue on it, and that no other function may read.
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { CspGeneratorStack } from '../lib/csp-generator-stack';
import { EMPTY_MAIL_SETTINGS } from '../lib/mail-secret';
import { ALL_FUNCTIONS, makeSourceRoot, testApp } from './source-root';

type Statement = { Action: string | string[]; Resource: unknown };
type Resource = { Type: string; Properties: Record<string, unknown> };

describe('outgoing mail', () => {
  let stack: CspGeneratorStack;
  let template: Template;
  let mailId: string;
  beforeAll(() => {
    const source = makeSourceRoot(ALL_FUNCTIONS);
    stack = new CspGeneratorStack(testApp(), 'Test', { sourceRoot: source.root });
    template = Template.fromStack(stack);
    source.remove();
    const secrets = Object.entries(template.findResources('AWS::SecretsManager::Secret')).filter(([, r]) =>
      JSON.stringify(r).includes('outgoing mail'),
    );
    expect(secrets).toHaveLength(1);
    mailId = secrets[0]![0];
  });

  /** The logical ids of the functions whose role may read the mail secret. */
  function readersOfMail(): string[] {
    const resources = template.toJSON().Resources as Record<string, Resource>;
    const roles = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .filter((p) =>
        (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement.some(
          (st) =>
            [st.Action].flat().includes('secretsmanager:GetSecretValue') &&
            JSON.stringify(st.Resource).includes(`"${mailId}"`),
        ),
      )
      .flatMap((p) => (p.Properties.Roles as { Ref: string }[]).map((r) => r.Ref));
    return Object.entries(resources)
      .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
      .filter(([, r]) => roles.includes((r.Properties.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0]))
      .map(([id]) => id)
      .sort();
  }

  const idOf = (name: 'api' | 'scheduleDispatcher') =>
    stack.getLogicalId(stack.functions[name]!.node.defaultChild as CfnFunction);

  it('is a secret holding no credential: an empty smtpUrl, no mail until the operator fills it in', () => {
    const secret = template.toJSON().Resources[mailId] as Resource;
    expect(JSON.parse(secret.Properties.SecretString as string)).toEqual(EMPTY_MAIL_SETTINGS);
    expect(secret.Properties.GenerateSecretString).toBeUndefined();
  });

  it('is read by the API and the schedule dispatcher, each told where it is, and by no other function', () => {
    expect(readersOfMail()).toEqual([idOf('api'), idOf('scheduleDispatcher')].sort());
    for (const name of ['api', 'scheduleDispatcher'] as const) {
      const fn = template.toJSON().Resources[idOf(name)] as Resource;
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.MAIL_SECRET_ARN).toEqual({ Ref: mailId });
      // The credentials never sit in a function's configuration.
      expect(env.SMTP_URL).toBeUndefined();
    }
  });

  it('is granted GetSecretValue only: the functions cannot change or list it', () => {
    const resources = template.toJSON().Resources as Record<string, Resource>;
    const onMail = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy')
      .flatMap((p) => (p.Properties.PolicyDocument as { Statement: Statement[] }).Statement)
      .filter((st) => JSON.stringify(st.Resource).includes(`"${mailId}"`));
    expect(onMail.length).toBeGreaterThan(0);
    expect([...new Set(onMail.flatMap((st) => [st.Action].flat()))]).toEqual([
      'secretsmanager:GetSecretValue',
    ]);
  });
});
