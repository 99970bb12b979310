// The policy a saved configuration sends (spec sections 4 and 9): the base rules, the custom rules (which
// hold the accepted suggestions), the nonce, report-uri/report-to, and the header it goes under; and the
// headers sent beside it: Integrity-Policy(-Report-Only) and a report-only Trusted Types policy. One
// function, used by the panel's preview, the API's export and the audit, so all three show the same policy.
//
// Trusted Types in a mode other than the policy's own (report-only beside an enforced policy, the usual
// first step; or enforced beside a report-only one) go into a second CSP header of that mode carrying only
// `require-trusted-types-for 'script'`, the `trusted-types` names and the same reporting. Browsers apply
// every CSP header they get, each on its own, so the second one changes nothing the first allows. In the
// policy's own mode they are directives of the policy itself: one header.
import type { AuditContext } from '../csp/checks/check';
import { NONE, SELF, sortSources } from '../csp/directives';
import { type IntegrityPolicyMode, integrityPolicyHeader } from '../csp/integrity-policy';
import { applyNonce } from '../csp/nonce';
import type { CspRules } from '../csp/policy';
import {
  CSP_HEADER,
  CSP_REPORT_ONLY_HEADER,
  type ExportFormat,
  type Header,
  type PolicyExport,
  REPORTING_GROUP,
  renderPolicy,
} from '../csp/serialize';
import { nonceIsPerRequest, serverExport } from '../csp/server-export';
import { type TrustedTypesMode, trustedTypesSources } from '../csp/trusted-types-names';
import { dictionary, ownValue } from '../maps/dictionary';
import type { ConfigurationBody, ConfigurationMetadata } from '../schemas/configuration';

/**
 * What composing reads of a configuration. The integrity options may be absent (callers holding a
 * configuration parsed before them): absent is off.
 */
export type ComposeInput = Pick<
  ConfigurationBody,
  'cspRules' | 'customRules' | 'includeReportUri' | 'reportOnlyMode' | 'serverType'
> & {
  metadata: Pick<ConfigurationMetadata, 'nonce' | 'includeNonce' | 'reportOnlyPolicy'> &
    Partial<ConfigurationMetadata>;
};

export const REPORT_SHA256 = "'report-sha256'";
const TRUSTED_TYPES_SINKS = "'script'";

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
  /** Headers sent beside the policy, in order: Integrity-Policy(-Report-Only), a Trusted Types policy. */
  extraHeaders: Header[];
  integrityPolicy: IntegrityPolicyMode;
  trustedTypes: TrustedTypesMode;
  /** Where 'report-sha256' went (null: not asked for, or no reporting / script directive to carry it). */
  reportSha256In: string | null;
  /** What an option could not do as asked, said wherever the policy is exported. */
  notices: string[];
}

/** One line under each integrity option in the panel. */
export const INTEGRITY_HINTS = {
  integrityPolicy:
    'Browsers refuse (report-only: report) scripts without an integrity attribute. Report-only first.',
  reportSha256: "Chromium 133+ reports the SHA-256 of each script visitors' browsers run ('report-sha256').",
  trustedTypes:
    'Guards innerHTML, eval and the other DOM sinks. Report-only first: a header of its own beside this policy.',
} as const;

/** The directive a CSP engine reads for <script> elements: where 'report-sha256' has an effect. */
const SCRIPT_ELEMENT_DIRECTIVES = ['script-src-elem', 'script-src', 'default-src'] as const;

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

/**
 * Adds 'report-sha256' to the directive browsers read for <script> and returns its name, or says in
 * `notices` why it could not (null).
 */
function addReportSha256(rules: CspRules, reporting: string | null, notices: string[]): string | null {
  const target = SCRIPT_ELEMENT_DIRECTIVES.find((d) => Object.hasOwn(rules, d));
  if (!reporting) {
    notices.push(
      "'report-sha256' was left out: script hashes are sent as Reporting API reports, and reporting is off. Turn on 'Include report-uri'.",
    );
    return null;
  }
  if (!target) {
    // A script-src holding only the keyword would block every script: never made up here.
    notices.push("'report-sha256' was left out: the policy has no script-src or default-src to carry it.");
    return null;
  }
  const sources = ownValue(rules, target) ?? [];
  if (sources.join(' ') === NONE) {
    notices.push(
      `'report-sha256' was left out: ${target} 'none' lets no script load, so there is nothing to report.`,
    );
    return null;
  }
  rules[target] = [...sources.filter((s) => s !== REPORT_SHA256), REPORT_SHA256];
  return target;
}

/** require-trusted-types-for 'script', and trusted-types with the names when there are any. */
function trustedTypesDirectives(names: readonly string[]): CspRules {
  const tt = dictionary<string[]>();
  tt['require-trusted-types-for'] = [TRUSTED_TYPES_SINKS];
  const sources = trustedTypesSources(names);
  if (sources.length) tt['trusted-types'] = sources;
  return tt;
}

/** Trusted Types in a CSP header of their own mode, reporting where the policy reports. */
function trustedTypesHeader(
  tt: CspRules,
  mode: Exclude<TrustedTypesMode, 'off'>,
  reporting: string | null,
  notices: string[],
): Header {
  const reportOnly = mode === 'report-only';
  if (reporting) {
    tt['report-uri'] = [reporting];
    tt['report-to'] = [REPORTING_GROUP];
  } else if (reportOnly) {
    notices.push(
      'The report-only Trusted Types policy has no reporting (report-uri is off): browsers only log what it would block to the console.',
    );
  }
  return { name: reportOnly ? CSP_REPORT_ONLY_HEADER : CSP_HEADER, value: renderPolicy(tt).value };
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
  const reporting = config.includeReportUri && reportEndpoint ? reportEndpoint : null;
  if (reporting) {
    rules['report-uri'] = [reporting];
    rules['report-to'] = [REPORTING_GROUP];
  }
  const rollout = rolloutOf({
    reportOnlyMode: config.reportOnlyMode,
    reportOnlyPolicy: metadata.reportOnlyPolicy,
  });
  const notices: string[] = [];
  const extraHeaders: Header[] = [];

  const reportSha256In = metadata.reportSha256 ? addReportSha256(rules, reporting, notices) : null;

  const integrityPolicy = metadata.integrityPolicy ?? 'off';
  const integrity = integrityPolicyHeader(integrityPolicy, reporting ? REPORTING_GROUP : null);
  if (integrity) extraHeaders.push(integrity);
  if (integrityPolicy === 'report-only' && !reporting) {
    notices.push(
      'Integrity-Policy-Report-Only without reporting only logs to the browser console: turn on report-uri to receive integrity-violation reports.',
    );
  }

  const trustedTypes = metadata.trustedTypes ?? 'off';
  if (trustedTypes !== 'off') {
    const tt = trustedTypesDirectives(metadata.trustedTypesPolicies ?? []);
    // In the policy when its mode is the policy's; otherwise a header of its own (see the file comment).
    if ((trustedTypes === 'report-only') === (rollout !== 'enforce')) {
      Object.assign(rules, tt);
    } else {
      extraHeaders.push(trustedTypesHeader(tt, trustedTypes, reporting, notices));
    }
  }

  return {
    rules,
    headerName: rollout === 'enforce' ? CSP_HEADER : CSP_REPORT_ONLY_HEADER,
    rollout,
    nonceDelivery,
    reportEndpoint,
    extraHeaders,
    integrityPolicy,
    trustedTypes,
    reportSha256In,
    notices,
  };
}

/**
 * What is known about the site beside the policy, for the audit of the integrity options: the external
 * scripts without integrity metadata (null: not known) and the base analysis's Trusted Types verdict.
 */
export type SiteFacts = Partial<Pick<AuditContext, 'scriptsWithoutIntegrity' | 'trustedTypesReadiness'>>;

/** The audit context of a composed policy (see csp/audit.ts). */
export function composedAuditContext(p: ComposedPolicy, facts: SiteFacts = {}): Partial<AuditContext> {
  return {
    reportOnly: p.rollout !== 'enforce',
    nonceDelivery: p.nonceDelivery,
    productEndpoint: p.reportEndpoint,
    integrityPolicy: p.integrityPolicy,
    trustedTypes: p.trustedTypes,
    scriptsWithoutIntegrity: facts.scriptsWithoutIntegrity ?? null,
    trustedTypesReadiness: facts.trustedTypesReadiness ?? null,
  };
}

/** The audit's findings about the integrity options, shown beside them in the panel whatever their weight. */
export const INTEGRITY_FINDING_CODES: ReadonlySet<string> = new Set([
  'report-sha256',
  'report-sha256-without-report-to',
  'integrity-policy-report-only',
  'integrity-policy-scripts-without-integrity',
  'trusted-types-report-only',
  'trusted-types-enforced-first',
]);

/**
 * A composed policy's export: under its header, with the headers sent beside it and what the options could
 * not do, as every place exports a policy (csp/server-export.ts).
 */
export function exportComposed(format: ExportFormat, p: ComposedPolicy): PolicyExport {
  const exported = serverExport(format, p.rules, {
    reportOnly: p.rollout !== 'enforce',
    extraHeaders: p.extraHeaders,
  });
  return { ...exported, warnings: [...p.notices, ...exported.warnings] };
}
