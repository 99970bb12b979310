// Password hashing with scrypt (OWASP: N=2^17, r=8, p=1). The parameters are stored in the hash string, so
// raising them later still verifies old hashes.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((ok, fail) =>
    // maxmem: the 32 MiB default is too small for N=2^17, r=8 (128 MiB).
    scrypt(password, salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? fail(err) : ok(key),
    ),
  );
}

export async function hashPassword(password: string, logN = 17): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, logN, 8, 1);
  return `scrypt$${logN}$8$1$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !logN || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), Number(logN), Number(r), Number(p));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const dummyHashes = new Map<number, Promise<string>>();
/**
 * A hash to verify against when the username does not exist, so an unknown user costs the same time as a
 * wrong password and timing does not reveal which usernames exist.
 */
export function dummyHash(logN: number): Promise<string> {
  let h = dummyHashes.get(logN);
  if (!h) {
    h = hashPassword(randomBytes(18).toString('base64'), logN);
    dummyHashes.set(logN, h);
  }
  return h;
}
