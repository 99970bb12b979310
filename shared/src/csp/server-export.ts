// The export of a policy for a server, one function for every place that offers it (the analysis page's
// server configurations and csp-policy.txt, the rules generator's preview and downloads, the API's export):
// the same policy in the same mode gives the same file wherever it is asked for.
import type { CspRules } from './policy';
import { type ExportFormat, exportPolicy, type Header, type PolicyExport } from './serialize';

/**
 * Whether the export can make a nonce fresh per response: Nginx only ($request_id, see exportNginx). The
 * other servers have no per-request value, so their exports write the nonce as it is and warn.
 */
export function nonceIsPerRequest(format: ExportFormat): boolean {
  return format === 'nginx';
}

/**
 * `reportOnly`: sent as Content-Security-Policy-Report-Only (it reports, blocks nothing). `extraHeaders`:
 * sent beside it (a configuration's Integrity-Policy, its Trusted Types policy).
 */
export function serverExport(
  format: ExportFormat,
  rules: CspRules,
  mode: { reportOnly: boolean; extraHeaders?: Header[] },
): PolicyExport {
  return exportPolicy(format, rules, {
    reportOnly: mode.reportOnly,
    perRequestNonce: nonceIsPerRequest(format),
    extraHeaders: mode.extraHeaders ?? [],
  });
}
