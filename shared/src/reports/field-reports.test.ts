// Field-hash reports at the report endpoint's parser: csp-hash and integrity-violation entries are read
// into field reports (no longer other-type), refused with the reason when their shape is wrong, and judged
// noise by the same rules as CSP reports. The bodies are Chromium 147's, as web/e2e/field-hashes-browser
// .test.ts reads them over CDP.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SHA256_DIGEST } from '../schemas/field-report';
import { REPORT_LIMITS } from './limits';
import { fieldNoiseReason, siteHost } from './noise';
import { parseReports, ReportBodyError } from './normalize';

const receivedAt = new Date('2026-11-24T10:00:00.000Z');
const digestOf = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
const DIGEST = digestOf('window.app = 1;');

const cspHash = (body: Record<string, unknown> = {}, entry: Record<string, unknown> = {}) => ({
  type: 'csp-hash',
  age: 1500,
  url: 'https://www.example.com/shop',
  user_agent: 'Mozilla/5.0 Chrome/147',
  body: {
    destination: 'script',
    documentURL: 'https://www.example.com/shop',
    hash: DIGEST,
    subresourceURL: 'https://cdn.example.net/app.js',
    type: 'subresource',
    ...body,
  },
  ...entry,
});

const integrity = (body: Record<string, unknown> = {}) => ({
  type: 'integrity-violation',
  age: 0,
  url: 'https://www.example.com/shop',
  body: {
    blockedURL: 'https://cdn.example.net/app.js',
    destination: 'script',
    documentURL: 'https://www.example.com/shop',
    reportOnly: true,
    ...body,
  },
});

const parse = (body: unknown) => parseReports(body, { receivedAt });
const refusal = (body: unknown) => {
  try {
    parse(body);
  } catch (err) {
    if (err instanceof ReportBodyError) return err.message;
    throw err;
  }
  return null;
};

describe('field-hash reports', () => {
  it('reads csp-hash and integrity-violation entries beside CSP violations, none of them other-type', () => {
    const parsed = parse([
      cspHash(),
      integrity(),
      { type: 'deprecation', body: { id: 'x' } },
      {
        type: 'csp-violation',
        body: { documentURL: 'https://www.example.com/', effectiveDirective: 'img-src' },
      },
    ]);
    expect(parsed.otherTypes).toBe(1);
    expect(parsed.reports).toHaveLength(1);
    expect(parsed.fieldReports).toEqual([
      {
        kind: 'hash',
        documentUri: 'https://www.example.com/shop',
        scriptUrl: 'https://cdn.example.net/app.js',
        digest: DIGEST,
        reportedAt: '2026-11-24T09:59:58.500Z',
      },
      {
        kind: 'integrity',
        documentUri: 'https://www.example.com/shop',
        scriptUrl: 'https://cdn.example.net/app.js',
        reportOnly: true,
        reportedAt: '2026-11-24T10:00:00.000Z',
      },
    ]);
    // One entry alone (not in an array) is read the same way.
    expect(parse(cspHash()).fieldReports).toHaveLength(1);
    // An enforced Integrity-Policy's report (the script was blocked) says so.
    expect(parse([integrity({ reportOnly: false })]).fieldReports[0]).toMatchObject({ reportOnly: false });
  });

  it.each([
    [
      'an unknown algorithm',
      { hash: `sha1-${Buffer.alloc(20).toString('base64')}` },
      /body\.hash must be sha256-/,
    ],
    ['a sha512 digest of the wrong length', { hash: `sha512-${'A'.repeat(43)}=` }, /body\.hash/],
    ['a digest of 31 bytes', { hash: `sha256-${Buffer.alloc(31, 7).toString('base64')}` }, /body\.hash/],
    ['a digest with a bad last character', { hash: `${DIGEST.slice(0, -2)}B=` }, /body\.hash/],
    ['base64url instead of base64', { hash: `sha256-${'-'.repeat(43)}=` }, /body\.hash/],
    ['no digest', { hash: undefined }, /body\.hash is required/],
    ['a script URL that is no URL', { subresourceURL: 'app.js' }, /subresourceURL must be an http\(s\) URL/],
    ['a javascript: script URL', { subresourceURL: 'javascript:alert(1)' }, /http\(s\)/],
    ['a document that is no URL', { documentURL: 42 }, /documentURL is required/],
  ])('refuses a csp-hash report with %s (400, as a CSP report with a bad field)', (_name, body, message) => {
    expect(refusal([cspHash(), cspHash(body)])).toMatch(message);
    expect(refusal([cspHash(body)])).toMatch(/^Report 1: /);
  });

  it('refuses an integrity-violation report without its blocked URL or destination', () => {
    expect(refusal([integrity({ blockedURL: undefined })])).toMatch(/blockedURL is required/);
    expect(refusal([integrity({ destination: undefined })])).toMatch(/destination is required/);
    expect(refusal([{ type: 'integrity-violation', body: 'x' }])).toMatch(/needs a body object/);
  });

  it("counts digests of 'report-sha384' and 'report-sha512' as other-type: not ours, and no reason to refuse the batch", () => {
    const sha384 = `sha384-${createHash('sha384').update('x').digest('base64')}`;
    const sha512 = `sha512-${createHash('sha512').update('x').digest('base64')}`;
    const parsed = parse([cspHash({ hash: sha384 }), cspHash({ hash: sha512 }), cspHash()]);
    expect(parsed).toMatchObject({ otherTypes: 2, fieldReports: [{ digest: DIGEST }] });
  });

  it('counts reports about other destinations than scripts as other-type, not as digests', () => {
    const parsed = parse([cspHash({ destination: 'style' }), integrity({ destination: 'style' })]);
    expect(parsed).toMatchObject({ fieldReports: [], otherTypes: 2 });
    expect(parse([cspHash({ type: 'inline' })])).toMatchObject({ fieldReports: [], otherTypes: 1 });
  });

  it('accepts only the digest a browser writes: sha256- and the base64 of 32 bytes', () => {
    for (const text of ['', 'a', 'window.app = 1;', 'x'.repeat(1000)]) {
      expect(digestOf(text)).toMatch(SHA256_DIGEST);
    }
    expect(`sha256-${Buffer.alloc(33).toString('base64')}`).not.toMatch(SHA256_DIGEST);
    expect(`${DIGEST}=`).not.toMatch(SHA256_DIGEST);
    expect(` ${DIGEST}`).not.toMatch(SHA256_DIGEST);
  });

  it('cuts URLs like a CSP report (nothing unbounded is queued)', () => {
    const long = `https://cdn.example.net/${'a'.repeat(5000)}.js`;
    const [r] = parse([cspHash({ subresourceURL: long })]).fieldReports;
    expect(r?.scriptUrl).toHaveLength(REPORT_LIMITS.maxUrlChars);
  });

  it('judges noise by the CSP reports rule: extensions, documents of other sites', () => {
    const site = siteHost('https://www.example.com');
    const [onSite, extension, offsite, subdomain] = parse([
      cspHash(),
      cspHash({ subresourceURL: 'chrome-extension://abcdef/inject.js' }),
      cspHash({ documentURL: 'https://evil.example.org/copy' }),
      integrity({ documentURL: 'https://shop.example.com/cart' }),
    ]).fieldReports;
    expect(fieldNoiseReason(onSite!, site)).toBeNull();
    expect(fieldNoiseReason(extension!, site)).toBe('extension');
    expect(fieldNoiseReason(offsite!, site)).toBe('offsite');
    expect(fieldNoiseReason(subdomain!, site)).toBeNull();
  });
});
