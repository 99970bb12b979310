// The zod schemas of a policy's findings and audit: what the API validates and stores. Apart from the
// vocabularies and rules they use (finding.ts, grade.ts, policy-audit.ts), so that a screen showing a grade or
// a finding does not load zod (some 20 KB on a phone's first view).
import * as z from 'zod';
import { GRADES, SEVERITIES } from './audit-vocabulary';

export const severitySchema = z.enum(SEVERITIES);

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

export const gradeSchema = z.enum(GRADES);

export const policyAuditSchema = z.object({
  grade: gradeSchema,
  /** 0–100, see grade.ts. */
  score: z.number().int().min(0).max(100),
  /** Findings of severity high or medium from the security checks (see isIssue). */
  issues: z.number().int().min(0),
  findings: z.array(policyFindingSchema),
});
export type PolicyAudit = z.infer<typeof policyAuditSchema>;
