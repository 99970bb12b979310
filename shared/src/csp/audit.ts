// One audit of a policy: every check run once on the policy (as written and as a CSP3 browser applies it),
// giving the findings that the generator's output, the recommendations, the badge, the Issues count and the
// grade all read. Check sets are plain arrays, as in google/csp-evaluator.
import { CspParser } from 'csp_evaluator/dist/parser.js';
import type * as z from 'zod';
import { dictionary } from '../maps/dictionary';
import { broadSourcesCheck } from './checks/broad-sources';
import { type AuditContext, auditContextSchema, type PolicyCheck, parsePolicy } from './checks/check';
import { cspEvaluatorCheck } from './checks/csp-evaluator';
import { frameAncestorsCheck } from './checks/frame-ancestors';
import { generatorCheck } from './checks/generator';
import { integrityPolicyCheck, reportHashCheck } from './checks/integrity';
import { judgeLocalSources } from './checks/local-sources';
import { nonceDeliveryCheck } from './checks/nonce-delivery';
import { reportOnlyCheck } from './checks/report-only';
import { reportingCheck } from './checks/reporting';
import { trustedTypesCheck } from './checks/trusted-types';
import { unsafeEvalCheck } from './checks/unsafe-eval';
import { unsafeInlineCheck } from './checks/unsafe-inline';
import { compareFindings, type PolicyFinding } from './finding';
import { gradeOfScore, isIssue, scoreOf } from './grade';
import type { CspRules } from './policy';
import type { PolicyAudit } from './policy-audit';

export const POLICY_CHECKS: readonly PolicyCheck[] = [
  unsafeInlineCheck,
  unsafeEvalCheck,
  broadSourcesCheck,
  frameAncestorsCheck,
  reportingCheck,
  nonceDeliveryCheck,
  reportOnlyCheck,
  reportHashCheck,
  integrityPolicyCheck,
  trustedTypesCheck,
  cspEvaluatorCheck,
  generatorCheck,
];

export function auditPolicy(
  rules: CspRules,
  context: z.input<typeof auditContextSchema> = {},
  checks: readonly PolicyCheck[] = POLICY_CHECKS,
): PolicyAudit {
  const ctx: AuditContext = auditContextSchema.parse(context);
  const policy = parsePolicy(rules);
  const unique = new Map<string, PolicyFinding>();
  for (const check of checks) {
    for (const f of check(policy, ctx)) {
      unique.set(`${f.checker}\u0000${f.code}\u0000${f.directive}\u0000${f.value ?? ''}`, f);
    }
  }
  // Loopback, private and own-endpoint sources do not weigh on the deployed policy: info, whatever the check.
  const findings = judgeLocalSources([...unique.values()], ctx).sort(compareFindings);
  const score = scoreOf(findings);
  return { grade: gradeOfScore(score), score, issues: findings.filter(isIssue).length, findings };
}

/** A header value as rules (csp_evaluator's parser: directive names lower-cased, sources as written). */
export function rulesOfHeader(value: string): CspRules {
  // A header's directive names are its author's: a dictionary, so `__proto__` stays a key.
  const rules = dictionary<string[]>();
  for (const [directive, sources] of Object.entries(new CspParser(value).csp.directives)) {
    rules[directive] = sources ?? [];
  }
  return rules;
}
