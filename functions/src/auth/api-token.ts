// API token values: "cspg_" + 36 random base62 characters (214 bits) + a 6-character base62 CRC-32 of
// them, the shape GitHub's tokens made common — a secret scanner recognises the prefix and can tell a real
// token from random text by the checksum without asking us, and we refuse a mistyped token without a
// table read. Only a SHA-256 of the value is stored (a token is random, so no slow hash is needed: there is
// nothing to guess from the hash).
import { createHash, randomInt } from 'node:crypto';
import { API_TOKEN_PREFIX } from '@csp/shared/schemas/api-token';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 36;
const CHECK_CHARS = 6;
const TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_CHARS + CHECK_CHARS}}$`);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, width: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

export function createApiTokenValue(): string {
  let random = '';
  for (let i = 0; i < RANDOM_CHARS; i++) random += BASE62[randomInt(62)];
  return `${API_TOKEN_PREFIX}${random}${base62(crc32(random), CHECK_CHARS)}`;
}

/** Whether `value` has a token's shape and checksum (says nothing about whether it exists). */
export function isWellFormedApiToken(value: string): boolean {
  if (!TOKEN_PATTERN.test(value)) return false;
  const body = value.slice(API_TOKEN_PREFIX.length);
  const random = body.slice(0, RANDOM_CHARS);
  return base62(crc32(random), CHECK_CHARS) === body.slice(RANDOM_CHARS);
}

/** What the table keeps of a token: its SHA-256, hex. */
export function apiTokenHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** What the list shows of a token: the prefix and four characters. */
export const apiTokenHint = (value: string) => `${value.slice(0, API_TOKEN_PREFIX.length + 4)}…`;
