import { auditPolicy } from '@csp/shared/csp/audit';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { describe, expect, it } from 'vitest';
import { securityHistory, securityScore } from './security-score';

const GOOD = auditPolicy({
  'default-src': ["'none'"],
  'script-src': ["'nonce-abcdefghijklmnopqrst'", "'strict-dynamic'", 'https:'],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'frame-ancestors': ["'self'"],
  'require-trusted-types-for': ["'script'"],
  'report-uri': ['https://r.example/'],
});
const BAD = auditPolicy({ 'script-src': ["'unsafe-inline'", '*'] });

const analysis = (
  id: string,
  domainId: string | null,
  createdAt: string,
  audit = GOOD,
  status = 'completed',
) =>
  ({
    id,
    domainId,
    createdAt,
    completedAt: createdAt,
    status,
    audit,
    verification: { pagesChecked: 2, violations: 1, samples: [] },
  }) as unknown as Analysis;

describe('securityScore', () => {
  it('is the mean over each domain’s latest completed policy, or null', () => {
    expect(securityScore([])).toBeNull();
    expect(securityScore([analysis('p', 'd1', '2026-01-03', GOOD, 'running')])).toBeNull();
    const score = securityScore([
      analysis('a', 'd1', '2026-01-01', BAD),
      analysis('b', 'd1', '2026-01-02', GOOD),
      analysis('c', 'd2', '2026-01-01', BAD),
      analysis('s', null, '2026-01-05', BAD),
    ]);
    expect(score).toEqual({
      score: Math.round((GOOD.score + BAD.score) / 2),
      grade: expect.any(String),
      policies: 2,
    });
  });
});

describe('securityHistory', () => {
  it('lists completed analyses oldest first with grade, issues and violations', () => {
    const points = securityHistory([
      analysis('b', 'd1', '2026-01-02'),
      analysis('a', 'd1', '2026-01-01', BAD),
    ]);
    expect(points.map((p) => [p.id, p.grade, p.violations])).toEqual([
      ['a', BAD.grade, 1],
      ['b', GOOD.grade, 1],
    ]);
    expect(GOOD.grade).toBe('A+');
  });
});
