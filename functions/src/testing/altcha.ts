// Solves a proof-of-work challenge from the API the way the widget does, for tests of the API over HTTP.
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { HttpClient } from './http-client';

export async function solvedAltcha(client: HttpClient): Promise<string> {
  const res = await client.get('/api/altcha-challenge');
  const challenge = (await res.json()) as Parameters<typeof solveChallenge>[0]['challenge'];
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('Could not solve the challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
