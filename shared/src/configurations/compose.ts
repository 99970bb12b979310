// The policy a saved configuration sends (spec sections 4 and 9): the base rules, the custom rules (which
// hold the accepted suggestions), the nonce, report-uri/report-to, and the header it goes under. One
// function, used by the panel's preview, the API's export and the audit, so all three show the same policy.
import { auditPolicy, type PolicyAudit } from '../csp/audit';
import type { AuditContext } from '../csp/checks/check';
import { NONE, SELF, sortSources } from '../csp/directives';
import { applyNonce } from '../csp/nonce';
import type { CspRules } from '../csp/policy';
import {
  CSP_HEADER,
  CSP_REPORT_ONLY_HEADER,
  type ExportFormat,
  type PolicyExport,
  REPORTING_GROUP,
} from '../csp/serialize';
import { nonceIsPerRequest, serverExport } from '../csp/server-export';
import { dictionary, ownValue } from '../maps/dictionary';
import type { ConfigurationBody } from '../schemas/configuration';

export type ComposeInput = Pick<
  ConfigurationBody,
  'cspRules' | 'customRules' | 'includeReportUri' | 'reportOnlyMode' | 'serverType' | 'metadata'
>;

/** What a configuration sends, and how. */
export interface ComposedPolicy {
  rules: CspRules;
  headerName: typeof CSP_HEADER | typeof CSP_REPORT_ONLY_HEADER;
  /**
   * enforce: the policy, enforced. report-only: this policy under the Report-Only header (the usual first
   * step of a roll-out). discovery: the spec's reportOnlyMode, a minimal `default-src 'self'` that reports
   * everything else a page loads.
   */
  rollout: 'enforce' | 'report-only' | 'discovery';
  /** The nginx export makes a fresh nonce per response ($request_id); the others write the stored one. */
  nonceDelivery: AuditContext['nonceDelivery'];
  /** The product's report endpoint the policy may report to (its findings are information, not issues). */
  reportEndpoint: string | null;
}

export const ROLLOUT_HINTS: Record<ComposedPolicy['rollout'], string> = {
  enforce: 'Browsers block whatever the policy does not allow.',
  'report-only':
    'Browsers apply nothing but report what this policy would block: deploy it like this first and enforce it once the reports are clean.',
  discovery:
    "A minimal default-src 'self' under Report-Only: browsers report everything the pages load from elsewhere. For learning what a site uses, before you have a policy.",
};

const REPORTING_DIRECTIVES = new Set(['report-uri', 'report-to']);

/**
 * base ∪ custom per directive, sorted; 'none' dropped from a list that gained sources. Directive names are
 * whatever was stored, so the result is a dictionary (no inherited `constructor` to merge into).
 */
export function mergeRules(base: CspRules, custom: CspRules): CspRules {
  const out = dictionary<string[]>();
  for (const [directive, sources] of Object.entries(base)) out[directive] = [...sources];
  for (const [directive, sources] of Object.entries(custom)) {
    out[directive] = [...(ownValue(out, directive) ?? []), ...sources];
  }
  for (const [directive, sources] of Object.entries(out)) {
    const sorted = sortSources(sources);
    out[directive] = sorted.length > 1 ? sorted.filter((s) => s !== NONE) : sorted;
  }
  return out;
}

/** The roll-out step the two switches choose: the discovery policy wins over this policy report-only. */
export function rolloutOf(s: {
  reportOnlyMode: boolean;
  reportOnlyPolicy: boolean;
}): ComposedPolicy['rollout'] {
  return s.reportOnlyMode ? 'discovery' : s.reportOnlyPolicy ? 'report-only' : 'enforce';
}

export function composePolicy(config: ComposeInput, reportEndpoint: string | null): ComposedPolicy {
  const { metadata } = config;
  const nonce = metadata.includeNonce && metadata.nonce ? metadata.nonce : null;
  const nonceDelivery: ComposedPolicy['nonceDelivery'] = !nonce
    ? 'template'
    : nonceIsPerRequest(config.serverType)
      ? 'per-request'
      : 'static';
  let rules: CspRules;
  if (config.reportOnlyMode) {
    rules = { 'default-src': [SELF] };
  } else {
    const base = dictionary<string[]>();
    for (const [d, sources] of Object.entries(config.cspRules))
      if (!REPORTING_DIRECTIVES.has(d)) base[d] = sources;
    rules = mergeRules(base, config.customRules);
    if (nonce) rules = applyNonce(rules, nonce);
  }
  if (config.includeReportUri && reportEndpoint) {
    rules['report-uri'] = [reportEndpoint];
    rules['report-to'] = [REPORTING_GROUP];
  }
  const rollout = rolloutOf({
    reportOnlyMode: config.reportOnlyMode,
    reportOnlyPolicy: metadata.reportOnlyPolicy,
  });
  return {
    rules,
    headerName: rollout === 'enforce' ? CSP_HEADER : CSP_REPORT_ONLY_HEADER,
    rollout,
    nonceDelivery,
    reportEndpoint,
  };
}

/** The audit context of a composed policy (see csp/audit.ts). */
export function composedAuditContext(p: ComposedPolicy): Partial<AuditContext> {
  return {
    reportOnly: p.rollout !== 'enforce',
    nonceDelivery: p.nonceDelivery,
    productEndpoint: p.reportEndpoint,
  };
}

/** The audit of what a configuration sends: the grade and findings the panel and the API show. */
export function auditComposed(p: ComposedPolicy): PolicyAudit {
  return auditPolicy(p.rules, composedAuditContext(p));
}

/** A composed policy's export: under its header, as every place exports a policy (csp/server-export.ts). */
export function exportComposed(format: ExportFormat, p: ComposedPolicy): PolicyExport {
  return serverExport(format, p.rules, { reportOnly: p.rollout !== 'enforce' });
}
