// TOTP codes for tests from an implementation other than the product's (otplib): Debian's oathtool when it
// is installed (`.ci/run` installs it), else this file's own RFC 6238 code, checked against the RFC's test
// vectors (totp-codes.test.ts).
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { findBinary } from './web-servers';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = BASE32.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 6238 with HMAC-SHA1, 30 s steps, `digits` digits, for a raw key. */
export function rfc6238(key: Buffer, epochSeconds: number, digits = 6): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(epochSeconds / 30)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

const oathtool = findBinary('oathtool');

/** The 6-digit code of a base32 secret at a time (default now), by oathtool when it is there. */
export function totpCode(secret: string, epochSeconds = Date.now() / 1000): string {
  if (oathtool) {
    const now = new Date(Math.floor(epochSeconds) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
    const res = spawnSync(oathtool, ['--totp', '--base32', `--now=${now}`, secret], { encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`oathtool failed: ${res.stderr}`);
    return res.stdout.trim();
  }
  return rfc6238(base32Decode(secret), epochSeconds);
}

export const codesFrom = oathtool ? 'oathtool' : 'RFC 6238 (own implementation)';
