// Test accounts made over HTTP from Node: the proof-of-work is solved with the widget's own library.
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import { sha, solveChallenge } from 'altcha/lib';

/** Fetches a challenge and returns the base64 payload the widget would send in the `altcha` field. */
export async function solvedAltcha(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/altcha-challenge`);
  if (!res.ok) throw new Error(`altcha-challenge answered ${res.status}`);
  const challenge = await res.json();
  const solution = await solveChallenge({ challenge, deriveKey: sha.deriveKey });
  if (!solution) throw new Error('Could not solve the ALTCHA challenge');
  const payload = {
    challenge: { parameters: challenge.parameters, signature: challenge.signature },
    solution,
  };
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

export interface TestAccount {
  username: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
}

export function newAccount(firstName = 'Grace'): TestAccount {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  return {
    username: `e2e_${id}`,
    password: `pw-${id}-secret`,
    email: `e2e_${id}@example.com`,
    firstName,
    lastName: 'Hopper',
  };
}

/** POST /api/register (same Origin as the server, as a browser would send). */
export async function registerAccount(baseUrl: string, account: TestAccount): Promise<void> {
  const res = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ ...account, altcha: await solvedAltcha(baseUrl) }),
  });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${await res.text()}`);
}

/**
 * Marks the user's unlocks so far seen, as after a visit that celebrated them: no achievement card comes up
 * over screens a test (or the Lighthouse bench) is about.
 */
export async function markUnlocksSeen(client: HttpClient): Promise<void> {
  const list: Array<{ type: string; seen: boolean }> = await (await client.get('/api/achievements')).json();
  for (const a of list.filter((x) => !x.seen)) await client.post(`/api/achievements/${a.type}/seen`);
}
