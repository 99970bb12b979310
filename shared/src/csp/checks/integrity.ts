// What a policy and the headers sent with it say about script integrity: Integrity-Policy (refuses scripts
// without an integrity attribute) and 'report-sha256' (visitors' browsers report each script's digest).
import { ENGINE_NAMES, ENGINE_TABLE, ENGINES, type EngineFeature } from '../engines/table';
import type { PolicyFinding } from '../finding';
import { auditFinding, type PolicyCheck } from './check';

/** "Chromium 133" or "Chromium 138, Firefox 145, Safari 26": the engines a table row holds for. */
export function supportedBy(feature: EngineFeature): string {
  const since = ENGINE_TABLE[feature].since;
  return ENGINES.filter((e) => since[e] !== null)
    .map((e) => `${ENGINE_NAMES[e]} ${since[e]}`)
    .join(', ');
}

const REPORT_HASH = /^'report-sha(256|384|512)'$/i;

/**
 * info: 'report-sha256' only makes supporting engines report script digests; others ignore it. Fires on
 *   `script-src 'self' 'report-sha256'; report-to g`.
 * low: the digests are Reporting API reports, so without report-to none is sent. Fires on
 *   `script-src 'self' 'report-sha256'`.
 */
export const reportHashCheck: PolicyCheck = (policy) => {
  const directives = Object.entries(policy.rules).filter(([, s]) => s.some((x) => REPORT_HASH.test(x)));
  if (directives.length === 0) return [];
  const directive = directives.map(([d]) => d).join(', ');
  const findings: PolicyFinding[] = [
    auditFinding({
      severity: 'info',
      directive,
      code: 'report-sha256',
      value: "'report-sha256'",
      description: `Visitors' browsers report the SHA-256 of every script they load (${supportedBy('report-sha256')}; a cross-origin script only when it is loaded with CORS). Engines without it ignore the keyword: it allows and blocks nothing, so it is harmless there.`,
    }),
  ];
  if (!policy.rules['report-to']?.length) {
    findings.push(
      auditFinding({
        severity: 'low',
        directive,
        code: 'report-sha256-without-report-to',
        value: "'report-sha256'",
        description:
          'Script digests are sent as Reporting API reports, and the policy has no report-to: none is sent.',
        fix: 'Add report-to with a Reporting-Endpoints group (a configuration does it with report-uri on).',
      }),
    );
  }
  return findings;
};

/**
 * medium: Integrity-Policy enforced while the crawl saw external scripts without integrity metadata: the
 *   browsers that apply it refuse each of them. Fires with integrityPolicy 'enforce', scriptsWithoutIntegrity 3.
 * low: enforced and nothing is known about the scripts' integrity. Fires with scriptsWithoutIntegrity null.
 * info: report-only: what it will report. Fires with integrityPolicy 'report-only'.
 */
export const integrityPolicyCheck: PolicyCheck = (_policy, context) => {
  const mode = context.integrityPolicy;
  if (mode === 'off') return [];
  const missing = context.scriptsWithoutIntegrity;
  const engines = supportedBy('integrity-policy');
  if (mode === 'report-only') {
    return [
      auditFinding({
        severity: 'info',
        directive: '',
        code: 'integrity-policy-report-only',
        description:
          missing === null
            ? `Integrity-Policy-Report-Only: browsers (${engines}) report every script loaded without an integrity attribute and block none.`
            : `Integrity-Policy-Report-Only: browsers (${engines}) will report the ${missing} external script${missing === 1 ? '' : 's'} the crawl saw without an integrity attribute, and block none.`,
        fix: 'Add integrity attributes until the reports stop, then enforce it.',
      }),
    ];
  }
  if (missing === 0) return [];
  return [
    auditFinding({
      severity: missing === null ? 'low' : 'medium',
      directive: '',
      code: 'integrity-policy-scripts-without-integrity',
      description:
        missing === null
          ? `Integrity-Policy is enforced: browsers (${engines}) refuse every script without an integrity attribute, and which of the site's scripts have one is not known.`
          : `Integrity-Policy is enforced while the crawl saw ${missing} external script${missing === 1 ? '' : 's'} without an integrity attribute: browsers (${engines}) will refuse ${missing === 1 ? 'it' : 'them'}.`,
      fix: 'Send Integrity-Policy-Report-Only first, add integrity (and crossorigin) to every script, and enforce once no report arrives.',
    }),
  ];
};
