import { describe, expect, it } from 'vitest';
import { isRiskySource, policyBadge, securityRecommendations } from './recommendations';

describe('isRiskySource and the policy badge (spec section 9)', () => {
  it.each([
    ["'unsafe-inline'", true],
    ["'unsafe-eval'", true],
    ['unsafe-inline', true],
    ["'UNSAFE-EVAL'", true],
    ["'wasm-unsafe-eval'", false],
    ["'unsafe-hashes'", false],
    ["'self'", false],
    ['https://unsafe-inline.example', false],
  ])('%s → %s', (source, risky) => {
    expect(isRiskySource(source)).toBe(risky);
  });

  it("reads 'Security Issues' when any source is risky, otherwise 'Valid'", () => {
    expect(policyBadge({ 'script-src': ["'self'"], 'style-src': ["'unsafe-inline'"] })).toBe(
      'Security Issues',
    );
    expect(policyBadge({ 'script-src': ["'self'", "'wasm-unsafe-eval'"] })).toBe('Valid');
    expect(policyBadge({})).toBe('Valid');
  });
});

describe('securityRecommendations', () => {
  const titles = (rules: Record<string, string[]>) => securityRecommendations(rules).map((r) => r.title);

  it('a clean policy with report-uri: only the report-only advice', () => {
    expect(securityRecommendations({ 'default-src': ["'self'"], 'report-uri': ['/r'] })).toEqual([
      expect.objectContaining({ type: 'success', priority: 'high', title: 'Test in report-only mode' }),
    ]);
  });

  it('unsafe-inline anywhere: a high-priority warning; no report-uri: medium info', () => {
    const recs = securityRecommendations({ 'style-src': ["'unsafe-inline'"] });
    expect(recs.map(({ type, priority, title }) => ({ type, priority, title }))).toEqual([
      { type: 'warning', priority: 'high', title: 'Remove unsafe-inline' },
      { type: 'info', priority: 'medium', title: 'Add report-uri' },
      { type: 'success', priority: 'high', title: 'Test in report-only mode' },
    ]);
  });

  it('says when unsafe-inline is only the ignored strict-CSP fallback', () => {
    const [warning] = securityRecommendations({
      'script-src': ["'nonce-abcdefghijklmnop'", "'strict-dynamic'", "'unsafe-inline'", 'https:'],
    });
    expect(warning?.title).toBe('Remove unsafe-inline');
    expect(warning?.description).toContain('fallback');
    expect(titles({ 'script-src': ["'unsafe-inline'"] })).toContain('Remove unsafe-inline');
  });
});
