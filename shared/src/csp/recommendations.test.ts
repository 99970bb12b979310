import { describe, expect, it } from 'vitest';
import { auditPolicy } from './audit';
import { securityRecommendations } from './recommendations';

const recommend = (rules: Record<string, string[]>) => securityRecommendations(auditPolicy(rules));

describe('securityRecommendations (spec section 9, from the audit)', () => {
  it('a clean policy with report-uri: only the report-only advice', () => {
    expect(recommend({ 'default-src': ["'self'"], 'report-uri': ['/r'] })).toEqual([
      expect.objectContaining({ type: 'success', priority: 'high', title: 'Test in report-only mode' }),
    ]);
  });

  it('unsafe-inline anywhere: a high-priority warning; no report-uri: medium info', () => {
    const recs = recommend({ 'style-src': ["'unsafe-inline'"] });
    expect(recs.map(({ type, priority, title }) => ({ type, priority, title }))).toEqual([
      { type: 'warning', priority: 'high', title: 'Remove unsafe-inline' },
      { type: 'info', priority: 'medium', title: 'Add report-uri' },
      { type: 'success', priority: 'high', title: 'Test in report-only mode' },
    ]);
  });

  it('says when unsafe-inline is only the ignored strict-CSP fallback', () => {
    const [warning] = recommend({
      'script-src': ["'nonce-abcdefghijklmnop'", "'strict-dynamic'", "'unsafe-inline'", 'https:'],
    });
    expect(warning?.title).toBe('Remove unsafe-inline');
    expect(warning?.description).toContain('fallback');
    expect(recommend({ 'script-src': ["'UNSAFE-INLINE'"] })[0]?.description).not.toContain('fallback');
  });

  it('report-to alone still asks for report-uri (Firefox and Safari use only report-uri)', () => {
    const titles = recommend({ 'default-src': ["'self'"], 'report-to': ['csp-endpoint'] }).map(
      (r) => r.title,
    );
    expect(titles).toContain('Add report-uri');
  });
});
