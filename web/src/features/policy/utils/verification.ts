// What the self-verification says about the policy handed out: it holds only when the verified pages saw no
// violation and nothing remains blocked; anything else needs a person's attention before enforcing it.
import type { Analysis, Verification, VerificationEngine } from '@csp/shared/schemas/analysis';
import { countOf } from '../../../lib/format';

/** 0 violations and nothing remaining. */
export function verificationHolds(v: Verification): boolean {
  return v.violations === 0 && (v.remaining ?? []).length === 0;
}

/** How many violations remain (the count, or the listed items when the count says less). */
export function remainingViolations(v: Verification): number {
  return Math.max(v.violations, (v.remaining ?? []).length);
}

/** "Verified on 12 pages: 0 violations", or "Verified on 10 pages: 2 violations remain". */
export function verificationHeadline(v: Verification): string {
  const pages = countOf(v.pagesChecked, 'page');
  if (verificationHolds(v)) return `Verified on ${pages}: 0 violations`;
  const k = remainingViolations(v);
  return `Verified on ${pages}: ${countOf(k, 'violation')} ${k === 1 ? 'remains' : 'remain'}`;
}

/** "refined once from the first pass's 3 violations" when the policy was refined, else null. */
export function refinementText(v: Verification): string | null {
  if (!v.refined) return null;
  const first = v.firstPassViolations;
  return first === undefined
    ? "refined once from the first pass's violations"
    : `refined once from the first pass's ${countOf(first, 'violation')}`;
}

/** The policy card's 'Needs attention': the analysis says so, or its verification does not hold. */
export function policyNeedsAttention(analysis: Pick<Analysis, 'needsAttention' | 'verification'>): boolean {
  if (analysis.needsAttention) return true;
  return analysis.verification ? !verificationHolds(analysis.verification) : false;
}

const ENGINE_NAMES: Record<VerificationEngine, string> = { chromium: 'Chromium', firefox: 'Firefox' };

/** "Chromium" or "Firefox" (for an item one engine blocked). */
export function engineName(engine: VerificationEngine): string {
  return ENGINE_NAMES[engine];
}

/**
 * Which browsers tried the policy: "Verified in Chromium and Firefox", or the engine that could not be
 * used and why. Null for analyses from before engines were recorded.
 */
export function enginesText(v: Verification): string | null {
  const engines = v.engines ?? [];
  if (engines.length === 0) return null;
  const ran = engines.filter((e) => !e.unavailable).map((e) => ENGINE_NAMES[e.engine]);
  const head =
    ran.length === 0
      ? 'Not verified in any browser'
      : `Verified in ${ran.length === 1 ? ran[0] : `${ran.slice(0, -1).join(', ')} and ${ran.at(-1)}`}`;
  const missing = engines
    .filter((e) => e.unavailable)
    .map((e) => `${ENGINE_NAMES[e.engine]} could not be used: ${e.unavailable}`);
  return missing.length === 0 ? `${head}.` : `${head} only. ${missing.join('. ')}.`;
}
