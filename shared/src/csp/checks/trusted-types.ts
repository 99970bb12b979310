// Trusted Types sent with a policy: enforcing them blocks every DOM sink use (innerHTML, eval, script.src…)
// that does not go through a policy, so they are rolled out report-only first.
import { auditFinding, type PolicyCheck } from './check';
import { supportedBy } from './integrity';

/**
 * low: require-trusted-types-for 'script' enforced while the base analysis's dry run found sinks in use, or
 *   there is no dry run: pages using them break where the policy applies. Fires with trustedTypes 'enforce'
 *   and trustedTypesReadiness 'far' or null.
 * info: report-only: reports each sink use, blocks nothing. Fires with trustedTypes 'report-only'.
 */
export const trustedTypesCheck: PolicyCheck = (_policy, context) => {
  const engines = supportedBy('trusted-types');
  if (context.trustedTypes === 'report-only') {
    return [
      auditFinding({
        severity: 'info',
        directive: 'require-trusted-types-for',
        code: 'trusted-types-report-only',
        description: `Trusted Types report-only: browsers (${engines}) report every DOM sink use (innerHTML, eval, script.src…) that no Trusted Types policy made, and block none.`,
        fix: 'Enforce it once the reports are clean (or a default policy handles what remains).',
      }),
    ];
  }
  if (context.trustedTypes !== 'enforce' || context.trustedTypesReadiness === 'ready') return [];
  const why =
    context.trustedTypesReadiness === null
      ? 'without a dry run that shows no page uses a DOM sink'
      : 'while the crawl saw pages use DOM sinks (innerHTML, eval, script.src…) outside any policy';
  return [
    auditFinding({
      severity: 'low',
      directive: 'require-trusted-types-for',
      code: 'trusted-types-enforced-first',
      description: `Trusted Types are enforced ${why}: browsers (${engines}) block each such use, and the page breaks there.`,
      fix: 'Send them report-only first, and enforce once the reports are clean.',
    }),
  ];
};
