import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { apiTokenHash, apiTokenHint, createApiTokenValue, isWellFormedApiToken } from './api-token';

describe('API token values', () => {
  it('carry the prefix, 214 random bits and a checksum that catches any one changed character', () => {
    const token = createApiTokenValue();
    expect(token).toMatch(/^cspg_[0-9A-Za-z]{42}$/);
    expect(isWellFormedApiToken(token)).toBe(true);
    for (let i = 5; i < token.length; i++) {
      const c = token[i] === 'a' ? 'b' : 'a';
      expect(isWellFormedApiToken(token.slice(0, i) + c + token.slice(i + 1))).toBe(false);
    }
    expect(isWellFormedApiToken(`${token}x`)).toBe(false);
    expect(isWellFormedApiToken(token.replace('cspg_', 'ghp_x'))).toBe(false);
    expect(new Set(Array.from({ length: 200 }, createApiTokenValue)).size).toBe(200);
  });

  it('is kept only as its SHA-256 and shown only by its first characters', () => {
    const token = createApiTokenValue();
    expect(apiTokenHash(token)).toBe(createHash('sha256').update(token).digest('hex'));
    expect(apiTokenHint(token)).toBe(`${token.slice(0, 9)}…`);
  });
});
