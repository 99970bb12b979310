// The seeder runs in Lambda with the runtime's SDK; here it runs on fakes of the SDK and of the
// CloudFormation response URL, to pin what it writes and that it always answers.
import { describe, expect, it } from 'vitest';
import { SECRET_FIELDS, SEEDER_SOURCE } from '../lib/app-secrets';

type Handler = (event: unknown) => Promise<void>;
interface Answer {
  Status: string;
  Reason: string;
  PhysicalResourceId: string;
}

function loadSeeder(initial: Record<string, string>, opts: { failWith?: string } = {}) {
  const state = { stored: JSON.stringify(initial), puts: 0, answers: [] as Answer[] };
  class GetSecretValueCommand {
    readonly kind = 'get';
  }
  class PutSecretValueCommand {
    readonly kind = 'put';
    constructor(readonly input: { SecretString: string }) {}
  }
  class SecretsManagerClient {
    async send(command: GetSecretValueCommand | PutSecretValueCommand) {
      if (opts.failWith) throw Object.assign(new Error('no'), { name: opts.failWith });
      if (command instanceof PutSecretValueCommand) {
        state.puts++;
        state.stored = command.input.SecretString;
        return {};
      }
      return { SecretString: state.stored };
    }
  }
  const https = {
    request(_url: string, _opts: unknown, onResponse: (res: unknown) => void) {
      return {
        on() {},
        end(body: string) {
          state.answers.push(JSON.parse(body) as Answer);
          onResponse({ resume() {}, on: (_e: string, done: () => void) => setImmediate(done) });
        },
      };
    },
  };
  const fakes: Record<string, unknown> = {
    'node:https': https,
    'node:crypto': { randomBytes: (n: number) => Buffer.alloc(n, 7) },
    '@aws-sdk/client-secrets-manager': { SecretsManagerClient, GetSecretValueCommand, PutSecretValueCommand },
  };
  const module = { exports: {} as { handler?: Handler } };
  new Function('require', 'exports', 'module', 'console', SEEDER_SOURCE)(
    (name: string) => fakes[name],
    module.exports,
    module,
    { error() {} },
  );
  const handler = module.exports.handler!;
  const event = (RequestType: string) => ({
    RequestType,
    ResponseURL: 'https://cloudformation.invalid/response',
    StackId: 'stack',
    RequestId: 'request',
    LogicalResourceId: 'Seed',
    ResourceProperties: { SecretId: 'arn:secret', Fields: JSON.stringify(SECRET_FIELDS) },
  });
  return { state, run: (type: string) => handler(event(type)) };
}

describe('secret seeder', () => {
  it('fills in the missing fields: 32 bytes each, totpEncryptionKey in base64', async () => {
    const { state, run } = loadSeeder({ sessionSecret: 'generated-by-secrets-manager' });
    await run('Create');
    const value = JSON.parse(state.stored) as Record<string, string>;
    expect(value.sessionSecret).toBe('generated-by-secrets-manager');
    expect(Buffer.from(value.totpEncryptionKey!, 'base64')).toHaveLength(32);
    expect(Buffer.from(value.altchaHmacKey!, 'base64url')).toHaveLength(32);
    expect(state.answers).toEqual([
      expect.objectContaining({ Status: 'SUCCESS', PhysicalResourceId: 'arn:secret' }),
    ]);
  });

  it('never overwrites a value, on update or delete', async () => {
    const full = { sessionSecret: 'a', altchaHmacKey: 'b', totpEncryptionKey: 'c' };
    const { state, run } = loadSeeder(full);
    await run('Update');
    await run('Delete');
    expect(state.puts).toBe(0);
    expect(JSON.parse(state.stored)).toEqual(full);
    expect(state.answers.map((a) => a.Status)).toEqual(['SUCCESS', 'SUCCESS']);
  });

  it('answers FAILED, without the secret, when Secrets Manager refuses', async () => {
    const { state, run } = loadSeeder({}, { failWith: 'AccessDeniedException' });
    await run('Create');
    expect(state.answers).toEqual([
      expect.objectContaining({ Status: 'FAILED', Reason: expect.stringContaining('AccessDeniedException') }),
    ]);
  });
});
