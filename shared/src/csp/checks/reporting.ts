// Where violation reports go (spec section 9: 'Add report-uri' when there is no report-uri directive).
import { ENGINE_NAMES, ENGINE_TABLE, ENGINES } from '../engines/table';
import type { PolicyFinding } from '../finding';
import { auditFinding, type PolicyCheck } from './check';

/**
 * info: no report-uri, so violations go unnoticed. Fires on `default-src 'self'`.
 * low: report-to alone: engines before report-to (engine table) send reports to report-uri only. Fires on
 *   `default-src 'self'; report-to csp-endpoint`.
 */
/** "Chromium before 70, Firefox before 149, Safari before 16.4": the engines without report-to. */
const WITHOUT_REPORT_TO = ENGINES.map((e) => {
  const since = ENGINE_TABLE['report-to'].since[e];
  return since === null ? `every ${ENGINE_NAMES[e]}` : `${ENGINE_NAMES[e]} before ${since}`;
}).join(', ');

export const reportingCheck: PolicyCheck = (policy) => {
  const findings: PolicyFinding[] = [];
  const uri = Boolean(policy.rules['report-uri']?.length);
  const to = Boolean(policy.rules['report-to']?.length);
  if (!uri && !to) {
    findings.push(
      auditFinding({
        severity: 'info',
        directive: 'report-uri',
        code: 'missing-report-uri',
        description:
          'No report-uri: browsers do not tell you what the policy blocks, so breakage and attacks go unnoticed.',
        // Read on the CSP Analyzer's results too, where there is no report-uri switch: the fix names the
        // directive, and where the switch is.
        fix: "Add report-uri with an endpoint that collects the reports (a domain's rules generator adds its own: 'Include report-uri').",
      }),
    );
  } else if (!uri) {
    findings.push(
      auditFinding({
        severity: 'low',
        directive: 'report-uri',
        code: 'report-to-only',
        description: `Only report-to is set: engines without it (${WITHOUT_REPORT_TO}) send reports to report-uri only.`,
        fix: 'Add report-uri with the same endpoint beside report-to.',
      }),
    );
  }
  return findings;
};
