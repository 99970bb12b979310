// The words of a policy's audit: its severities and grades. A leaf module: the audit's rules (finding.ts,
// grade.ts) and its zod schemas (audit-schemas.ts) both read them.

/**
 * Most severe first; the index is the rank. csp_evaluator numbers its severities so that sorting them
 * is misleading (HIGH_MAYBE=40 sorts after MEDIUM=30, INFO=60 after both "maybes"); we keep a plain
 * ordered list and map onto it in checks/csp-evaluator.ts.
 */
export const SEVERITIES = ['high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const GRADES = ['A+', 'A', 'B', 'C', 'D', 'F'] as const;
export type Grade = (typeof GRADES)[number];
