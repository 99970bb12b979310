// Findings about a policy — from the generator (why a source is there, what was left out), from our own
// checks and from csp_evaluator (checks/) — as plain zod-typed objects with one severity scale of our own.
import * as z from 'zod';

/**
 * Most severe first; the index is the rank. csp_evaluator numbers its severities so that sorting them
 * is misleading (HIGH_MAYBE=40 sorts after MEDIUM=30, INFO=60 after both "maybes"); we keep a plain
 * ordered list and map onto it in checks/csp-evaluator.ts.
 */
export const SEVERITIES = ['high', 'medium', 'low', 'info'] as const;
export const severitySchema = z.enum(SEVERITIES);
export type Severity = z.infer<typeof severitySchema>;

export const policyFindingSchema = z.object({
  severity: severitySchema,
  /** Directive the finding is about ('' when it concerns the whole policy). */
  directive: z.string(),
  description: z.string(),
  /** The source or value concerned, when there is one. */
  value: z.string().optional(),
  /** Stable machine code: generator codes are kebab-case, csp_evaluator ones its `Type` names. */
  code: z.string(),
  /** Where the finding came from: the policy generator, one of our checks, or Google's csp_evaluator. */
  checker: z.enum(['generator', 'audit', 'csp_evaluator']),
  /** How to fix it, when the check knows. */
  fix: z.string().optional(),
});
export type PolicyFinding = z.infer<typeof policyFindingSchema>;

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** Most severe first, then by directive, code and value, so lists are stable. */
export function compareFindings(a: PolicyFinding, b: PolicyFinding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    a.directive.localeCompare(b.directive) ||
    a.code.localeCompare(b.code) ||
    (a.value ?? '').localeCompare(b.value ?? '')
  );
}

export function highestSeverity(findings: readonly PolicyFinding[]): Severity | undefined {
  let best: Severity | undefined;
  for (const f of findings) {
    if (best === undefined || severityRank(f.severity) < severityRank(best)) best = f.severity;
  }
  return best;
}

/**
 * Adds a finding of the policy generator to its list, keyed by code, directive and value: the first one
 * of a kind stays (a source seen on many pages is reported once).
 */
export function addGeneratorFinding(
  findings: Map<string, PolicyFinding>,
  f: Omit<PolicyFinding, 'checker'>,
): void {
  const key = `${f.code}\u0000${f.directive}\u0000${f.value ?? ''}`;
  if (!findings.has(key)) findings.set(key, { ...f, checker: 'generator' });
}
