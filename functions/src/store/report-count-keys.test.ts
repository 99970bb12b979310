// A report counter's sort key holds browser text: bounded whatever the text, and read back as it was.
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import { describe, expect, it } from 'vitest';
import { parseReportCountSk, reportCountKey } from './keys';

const HOUR = '2026-11-25T10';

describe('report counter keys', () => {
  it('spell out short text and read it back', () => {
    const { sk } = reportCountKey('d1', 3, HOUR, 'img-src', 'https://cdn.example.net');
    expect(parseReportCountSk(sk)).toEqual({
      hour: HOUR,
      directive: 'img-src',
      source: 'https://cdn.example.net',
    });
  });

  it('hold a digest of long, separator-bearing or digest-like text, so no key passes DynamoDB limits', () => {
    const cases: [string, string][] = [
      ['img-src', `https://${'a'.repeat(2040)}.example`],
      ['img#src', 'https://x.example'],
      ['img-src', '~looks-like-a-digest'],
      ['ü'.repeat(64), 'ü'.repeat(200)],
    ];
    for (const [directive, source] of cases) {
      const { pk, sk } = reportCountKey('d'.repeat(36), 7, HOUR, directive, source);
      expect(Buffer.byteLength(sk)).toBeLessThan(1024);
      expect(Buffer.byteLength(pk)).toBeLessThan(2048);
      const parsed = parseReportCountSk(sk)!;
      expect(parsed.hour).toBe(HOUR);
      // Each part is either the text itself or null (a digest: the text is an attribute of the counter).
      expect([directive, null]).toContain(parsed.directive);
      expect([source, null]).toContain(parsed.source);
    }
    expect(Buffer.byteLength(reportCountKey('d', 0, HOUR, 'x', 'y'.repeat(5000)).sk)).toBeLessThanOrEqual(
      13 + 1 + 1 + 1 + 44,
    );
    expect(REPORT_LIMITS.maxKeySourceBytes * 2 + 16).toBeLessThan(1024);
  });

  it('tell apart two long sources that share their first characters', () => {
    const a = reportCountKey('d', 0, HOUR, 'img-src', `https://${'a'.repeat(600)}.one.example`);
    const b = reportCountKey('d', 0, HOUR, 'img-src', `https://${'a'.repeat(600)}.two.example`);
    expect(a.sk).not.toBe(b.sk);
  });
});
