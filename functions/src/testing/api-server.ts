// Starts the real local server on the test run's DynamoDB Local, with a table of its own per test file.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { type LocalServerOptions, startLocalServer } from '../local/server';
import { solvedAltcha } from './altcha';
import { HttpClient } from './http-client';

/**
 * Small proof-of-work and scrypt costs keep the suite fast; the code paths are the production ones. Every
 * test client comes from 127.0.0.1, so the per-client request budgets are raised beyond what a test file
 * sends (client-rate-limit.test.ts checks them at small values).
 */
export const TEST_ENV = {
  ALTCHA_MAX_NUMBER: '2000',
  SCRYPT_LOG_N: '14',
  API_SIGN_IN_PER_MINUTE: '100000',
  API_CLIENT_PER_MINUTE: '100000',
  LOG_LEVEL: 'silent',
};

export async function startTestServer(opts: Omit<LocalServerOptions, 'dynamoEndpoint' | 'port'> = {}) {
  const server = await startLocalServer({
    port: 0,
    dynamoEndpoint: inject('dynamoEndpoint'),
    tableName: `t-${randomBytes(6).toString('hex')}`,
    ...opts,
    env: { ...TEST_ENV, ...opts.env },
  });
  return server;
}

let counter = 0;
/** Registers a fresh user through the API and returns a client signed in as them. */
export async function registeredClient(baseUrl: string, overrides: Record<string, string> = {}) {
  const client = new HttpClient(baseUrl);
  counter += 1;
  const username = `user${counter}_${randomBytes(3).toString('hex')}`;
  const body = {
    username,
    email: `${username}@example.test`,
    password: 'correct horse battery',
    firstName: 'Ada',
    lastName: 'Lovelace',
    ...overrides,
  };
  const res = await client.post('/api/register', { ...body, altcha: await solvedAltcha(client) });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const user = (await res.json()) as { id: string; username: string };
  return { client, user, password: body.password, username: body.username };
}
