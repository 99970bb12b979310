// Requests per client address: one client over its budget is refused with 429 and Retry-After, and
// another client (another loopback source address, which the local server takes from the connection, as
// it does for every client) still signs in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { solvedAltcha } from '../../testing/altcha';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

const SIGN_IN_BUDGET = 4;
const API_BUDGET = 6;

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer({
    env: { API_SIGN_IN_PER_MINUTE: String(SIGN_IN_BUDGET), API_CLIENT_PER_MINUTE: String(API_BUDGET) },
  });
});
afterAll(async () => {
  await server?.close();
});

const clientFrom = (address: string) => new HttpClient(server.url, server.url, address);

describe('per-client request budgets', () => {
  it('refuses junk sign-ins from one client over the budget while another client still signs in', async () => {
    const victim = clientFrom('127.0.0.3');
    const { username, password } = await registeredClient(server.url); // from 127.0.0.1

    const attacker = clientFrom('127.0.0.2');
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_BUDGET + 3; i++) {
      const res = await attacker.post('/api/login', { username: 'nobody', password: 'x', altcha: 'junk' });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, SIGN_IN_BUDGET).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(SIGN_IN_BUDGET)).toEqual([429, 429, 429]);

    const refused = await attacker.get('/api/altcha-challenge');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).message).toMatch(/Too many requests from your network address/);

    // Another address: challenge and sign-in, two requests of its own budget.
    const res = await victim.post('/api/login', { username, password, altcha: await solvedAltcha(victim) });
    expect(res.status).toBe(200);
    expect((await victim.get('/api/user')).status).toBe(200);
  });

  it('limits the rest of the API per client too, apart from the sign-in budget', async () => {
    const flooder = clientFrom('127.0.0.4');
    const statuses: number[] = [];
    for (let i = 0; i < API_BUDGET + 2; i++) statuses.push((await flooder.get('/api/user')).status);
    expect(statuses.slice(0, API_BUDGET)).toEqual(new Array(API_BUDGET).fill(401));
    expect(statuses.slice(API_BUDGET)).toEqual([429, 429]);
    // Its sign-in budget is its own: the challenge still answers.
    expect((await flooder.get('/api/altcha-challenge')).status).toBe(200);
    // Another client's reads are untouched.
    expect((await clientFrom('127.0.0.5').get('/api/user')).status).toBe(401);
  });
});
