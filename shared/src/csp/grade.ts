// A letter grade (A+ to F) and a 0–100 score from a policy's audit findings, and the mean over several
// policies (the dashboard's Security Score).
import type { Grade, Severity } from './audit-vocabulary';
import type { PolicyFinding } from './finding';

export { GRADES, type Grade } from './audit-vocabulary';

/**
 * Points a kind of problem costs (one code in one directive, counted once however many sources it names:
 * csp_evaluator flags every allowlisted host). One high problem (e.g. script 'unsafe-inline') caps a policy
 * at C, two make it F; a medium one (e.g. 'unsafe-eval') costs a grade; low ones (advice such as "consider
 * strict-dynamic", missing frame-ancestors) cost at most LOW_PENALTY_CAP together, so they keep a policy in
 * the A band but not A+.
 */
export const SEVERITY_PENALTY: Record<Severity, number> = { high: 30, medium: 12, low: 3, info: 0 };
export const LOW_PENALTY_CAP = 9;

/** Lowest score of each grade; A+ is a policy with no finding above info. */
const GRADE_FLOORS: ReadonlyArray<readonly [Grade, number]> = [
  ['A+', 100],
  ['A', 90],
  ['B', 80],
  ['C', 65],
  ['D', 50],
  ['F', 0],
];

/**
 * Findings that judge the policy's protection. The generator's findings describe how the policy fits the
 * crawled site (trades, unstable code, verification) and are shown but not scored: what they lead to in
 * the policy (an 'unsafe-inline', a broad source) is scored by the checks that see it.
 */
export function isScored(finding: PolicyFinding): boolean {
  return finding.checker !== 'generator';
}

/** Scored findings of severity high or medium: the policy's security issues (badge, Issues tile). */
export function isIssue(finding: PolicyFinding): boolean {
  return isScored(finding) && (finding.severity === 'high' || finding.severity === 'medium');
}

export function scoreOf(findings: readonly PolicyFinding[]): number {
  const worst = new Map<string, number>();
  for (const f of findings) {
    if (!isScored(f)) continue;
    const key = `${f.code}\u0000${f.directive}`;
    worst.set(key, Math.max(worst.get(key) ?? 0, SEVERITY_PENALTY[f.severity]));
  }
  let penalty = 0;
  let low = 0;
  for (const points of worst.values()) {
    if (points === SEVERITY_PENALTY.low) low += points;
    else penalty += points;
  }
  return Math.max(0, 100 - penalty - Math.min(low, LOW_PENALTY_CAP));
}

export function gradeOfScore(score: number): Grade {
  for (const [grade, floor] of GRADE_FLOORS) if (score >= floor) return grade;
  return 'F';
}

/** Mean score of several policies and its grade; null when there is none. */
export function meanGrade(scores: readonly number[]): { score: number; grade: Grade } | null {
  if (scores.length === 0) return null;
  const score = Math.round(scores.reduce((a, b) => a + b, 0) / scores.length);
  return { score, grade: gradeOfScore(score) };
}
