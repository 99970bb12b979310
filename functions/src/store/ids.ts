// Time-sortable random ids (ULID layout: 48-bit time + 80 random bits, Crockford base32), so "newest first"
// is a key order and ids cannot be guessed or enumerated.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export function newId(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += ALPHABET[bytes[i]! % 32];
  return time + rand;
}

export function newUuid(): string {
  return randomUUID();
}

/**
 * An id with newId's layout whose random part comes from `seed`: the same seed gives the same id, so an
 * item written again after a redelivery overwrites itself instead of appearing twice.
 */
export function idFromSeed(timeMs: number, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  return newId(timeMs).slice(0, 10) + [...digest.subarray(0, 16)].map((b) => ALPHABET[b % 32]).join('');
}

/** The smallest id of a moment: ids from `timeMs` on sort at or after it. */
export function idFloor(timeMs: number): string {
  return newId(timeMs).slice(0, 10) + '0'.repeat(16);
}
