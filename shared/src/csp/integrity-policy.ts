// Integrity-Policy (Subresource Integrity §4): a response header that makes the browser refuse, or under
// Integrity-Policy-Report-Only only report, scripts loaded without integrity metadata. Its value is a
// structured-field dictionary (RFC 8941) of inner lists of tokens:
//   blocked-destinations=(script), endpoints=(csp-endpoint)
// `sources` is left out: its default, (inline), the integrity attribute, is the only one defined. The
// endpoint is a Reporting-Endpoints group name, the same one the CSP's report-to names, so one
// Reporting-Endpoints header serves both. Pure.
import * as z from 'zod';

export const INTEGRITY_POLICY_HEADER = 'Integrity-Policy';
export const INTEGRITY_POLICY_REPORT_ONLY_HEADER = 'Integrity-Policy-Report-Only';

export const INTEGRITY_POLICY_MODES = ['off', 'report-only', 'enforce'] as const;
export const integrityPolicyModeSchema = z.enum(INTEGRITY_POLICY_MODES, {
  message: "integrityPolicy must be 'off', 'report-only' or 'enforce'",
});
export type IntegrityPolicyMode = z.infer<typeof integrityPolicyModeSchema>;

/** An sf-token (RFC 8941 §3.3.4): what a group name must be to stand in the inner list unquoted. */
const SF_TOKEN = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*$/;

/** The header for a mode (null when off), reporting to `group` when given. */
export function integrityPolicyHeader(
  mode: IntegrityPolicyMode,
  group: string | null,
): { name: string; value: string } | null {
  if (mode === 'off') return null;
  const endpoints = group && SF_TOKEN.test(group) ? `, endpoints=(${group})` : '';
  return {
    name: mode === 'enforce' ? INTEGRITY_POLICY_HEADER : INTEGRITY_POLICY_REPORT_ONLY_HEADER,
    value: `blocked-destinations=(script)${endpoints}`,
  };
}
