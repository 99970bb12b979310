import { describe, expect, it } from 'vitest';
import { policyDrift } from './drift';

const saved = {
  rules: { 'default-src': ["'self'"], 'script-src': ["'self'", "'nonce-{NONCE}'"] },
  reportOnly: false,
};

describe('policyDrift', () => {
  it('matches when every page serves the saved policy (any nonce, any order, extra restricting policies)', () => {
    const drift = policyDrift(
      [
        {
          page: '/a',
          headers: { 'content-security-policy': "script-src 'nonce-r4nd' 'self'; default-src 'self'" },
        },
        {
          page: '/b',
          headers: {
            'content-security-policy':
              "frame-ancestors 'none', default-src 'self'; script-src 'self' 'nonce-x'",
          },
        },
      ],
      saved,
    );
    expect(drift).toEqual({ state: 'matches', header: 'content-security-policy', variants: [] });
  });

  it('says none is served when no page has the header of the saved mode', () => {
    const drift = policyDrift(
      [{ page: '/a', headers: { 'content-security-policy-report-only': "default-src 'self'" } }],
      saved,
    );
    expect(drift.state).toBe('none-served');
    expect(drift.variants).toEqual([{ served: null, pages: ['/a'], differences: [] }]);
  });

  it('lists what differs, once per served value, with its pages', () => {
    const loose = "default-src 'self'; script-src 'self' 'unsafe-inline'";
    const drift = policyDrift(
      [
        { page: '/a', headers: { 'content-security-policy': loose } },
        { page: '/b', headers: { 'content-security-policy': loose } },
        { page: '/c', headers: {} },
        {
          page: '/d',
          headers: { 'content-security-policy': "default-src 'self'; script-src 'self' 'nonce-q'" },
        },
      ],
      saved,
    );
    expect(drift.state).toBe('differs');
    expect(drift.variants).toEqual([
      {
        served: loose,
        pages: ['/a', '/b'],
        differences: [
          {
            directive: 'script-src',
            change: 'changed',
            added: ["'unsafe-inline'"],
            removed: ["'nonce-{NONCE}'"],
          },
        ],
      },
      { served: null, pages: ['/c'], differences: [] },
    ]);
  });

  it('reads the report-only header for a report-only configuration', () => {
    const drift = policyDrift(
      [{ page: '/a', headers: { 'content-security-policy-report-only': "default-src 'self'" } }],
      { rules: { 'default-src': ["'self'"] }, reportOnly: true },
    );
    expect(drift).toMatchObject({ state: 'matches', header: 'content-security-policy-report-only' });
  });
});
