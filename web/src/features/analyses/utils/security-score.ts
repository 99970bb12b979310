// The dashboard's Security Score and the domain screen's history, from the audits stored with analyses.
import { type Grade, gradeOfScore, meanGrade } from '@csp/shared/csp/grade';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { byCodeUnits } from '@csp/shared/text/order';

const completedWithAudit = (a: Analysis) => a.status === 'completed' && Boolean(a.audit);

/**
 * The mean score of the user's domains' latest policies: per domain, the newest completed analysis (its
 * allowlist policy, the one generated to work without changes to the site); null when there is none.
 */
export function securityScore(
  analyses: readonly Analysis[],
): { score: number; grade: Grade; policies: number } | null {
  const latest = new Map<string, Analysis>();
  for (const a of analyses) {
    if (!a.domainId || !completedWithAudit(a)) continue;
    const current = latest.get(a.domainId);
    if (!current || a.createdAt > current.createdAt) latest.set(a.domainId, a);
  }
  const mean = meanGrade([...latest.values()].map((a) => a.audit!.score));
  return mean ? { ...mean, policies: latest.size } : null;
}

export interface HistoryPoint {
  id: string;
  at: string;
  score: number;
  grade: Grade;
  issues: number;
  /** Violations the self-verification still saw with the handed-out policy (null: not verified). */
  violations: number | null;
}

/** A domain's completed analyses, oldest first, as points of its security history. */
export function securityHistory(analyses: readonly Analysis[]): HistoryPoint[] {
  return analyses
    .filter(completedWithAudit)
    .map((a) => ({
      id: a.id,
      at: a.completedAt ?? a.createdAt,
      score: a.audit!.score,
      grade: gradeOfScore(a.audit!.score),
      issues: a.audit!.issues,
      violations: a.verification ? a.verification.violations : null,
    }))
    .sort((x, y) => byCodeUnits(x.at, y.at));
}
