// Findings about a policy — from the generator (why a source is there, what was left out), from our own
// checks and from csp_evaluator (checks/) — as plain zod-typed objects with one severity scale of our own.

import { byCodeUnits } from '../text/order';
import type { PolicyFinding } from './audit-schemas';
import { SEVERITIES, type Severity } from './audit-vocabulary';

// The finding's shape is a zod schema (audit-schemas.ts), apart from this module: the screens that only show
// grades and findings load no zod.
export type { PolicyFinding } from './audit-schemas';
export { SEVERITIES, type Severity } from './audit-vocabulary';

export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

/** Most severe first, then by directive, code and value, so lists are stable. */
export function compareFindings(a: PolicyFinding, b: PolicyFinding): number {
  return (
    severityRank(a.severity) - severityRank(b.severity) ||
    byCodeUnits(a.directive, b.directive) ||
    byCodeUnits(a.code, b.code) ||
    byCodeUnits(a.value ?? '', b.value ?? '')
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
