// Drift: whether the policy a site serves is the one the domain's active saved configuration says it should
// serve. Read from the security headers the crawl recorded on each page: the header of the configuration's
// mode (Content-Security-Policy, or its report-only twin) must carry a policy equivalent to the saved one
// (diffPolicies: same sources per directive, any nonce for any nonce). A header with several policies
// matches when one of them is the saved one (the others only restrict more). Pages that serve the same value
// are judged once and listed together.

import { parsePolicyList } from '../csp/parse-policy';
import type { CspRules } from '../csp/policy';
import { type DirectiveDiff, diffPolicies } from './policy-diff';
import type { PageHeaders } from './snapshot';

export type DriftState = 'matches' | 'differs' | 'none-served';

export interface DriftVariant {
  /** The header value these pages served (null: none). */
  served: string | null;
  pages: string[];
  /** From the saved policy to the served one (empty when they match or nothing is served). */
  differences: DirectiveDiff[];
}

export interface Drift {
  /** 'matches' on every page; 'none-served' when no page serves the header; otherwise 'differs'. */
  state: DriftState;
  header: 'content-security-policy' | 'content-security-policy-report-only';
  variants: DriftVariant[];
}

export function policyDrift(
  pages: PageHeaders[],
  expected: { rules: CspRules; reportOnly: boolean; ignoreReporting?: boolean },
): Drift {
  const header = expected.reportOnly ? 'content-security-policy-report-only' : 'content-security-policy';
  const byValue = new Map<string | null, string[]>();
  for (const { page, headers } of pages) {
    const value = headers[header] ?? null;
    const list = byValue.get(value);
    if (list) list.push(page);
    else byValue.set(value, [page]);
  }
  const variants: DriftVariant[] = [...byValue].map(([served, list]) => ({
    served,
    pages: list,
    differences:
      served === null ? [] : closestDifferences(expected.rules, served, expected.ignoreReporting ?? false),
  }));
  const matching = (v: DriftVariant) => v.served !== null && v.differences.length === 0;
  const state: DriftState = variants.every(matching)
    ? 'matches'
    : variants.every((v) => v.served === null)
      ? 'none-served'
      : 'differs';
  return { state, header, variants: variants.filter((v) => !matching(v)) };
}

/**
 * With `ignoreReporting`: where reports go is not what a policy allows, so a served policy that reports to
 * the site's own endpoint (or to ours under another origin) is the saved policy all the same. The watch
 * compares so (it composes the saved policy without the report endpoint a request would give it); `check`
 * compares the exact export, where a missing report-uri means reports stop arriving.
 */
const REPORTING = new Set(['report-uri', 'report-to']);
const withoutReporting = (rules: CspRules): CspRules =>
  Object.fromEntries(Object.entries(rules).filter(([d]) => !REPORTING.has(d.toLowerCase())));

/** The differences to the served policy closest to the saved one (none when one of them is it). */
function closestDifferences(saved: CspRules, served: string, ignoreReporting: boolean): DirectiveDiff[] {
  const strip = (r: CspRules) => (ignoreReporting ? withoutReporting(r) : r);
  const rules = strip(saved);
  const policies = parsePolicyList(served).map(strip);
  if (policies.length === 0) return diffPolicies(rules, {});
  let best: DirectiveDiff[] | null = null;
  for (const policy of policies) {
    const diffs = diffPolicies(rules, policy);
    if (best === null || weight(diffs) < weight(best)) best = diffs;
    if (diffs.length === 0) break;
  }
  return best ?? [];
}

const weight = (diffs: DirectiveDiff[]) =>
  diffs.reduce((n, d) => n + 1 + d.added.length + d.removed.length, 0);
