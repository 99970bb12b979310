// The spec's Security Recommendations panel and policy badge (section 9), as pure functions over cspRules.
import { z } from 'zod';
import type { CspRules } from '../schemas/analysis';
import { ignoredSources } from './directives';

export const recommendationSchema = z.object({
  type: z.enum(['warning', 'info', 'success']),
  priority: z.enum(['high', 'medium']),
  title: z.string(),
  description: z.string(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

export const POLICY_BADGES = ['Security Issues', 'Valid'] as const;
export type PolicyBadge = (typeof POLICY_BADGES)[number];

function keywordName(source: string): string {
  return source.trim().replace(/^'|'$/g, '').toLowerCase();
}

/**
 * Spec: "A source containing unsafe-inline or unsafe-eval is flagged as a security risk." Matched as the
 * keyword, quoted or not (users type custom rules either way), not as a substring: 'wasm-unsafe-eval'
 * enables WebAssembly only and is not JavaScript eval.
 */
export function isRiskySource(source: string): boolean {
  const name = keywordName(source);
  return name === 'unsafe-inline' || name === 'unsafe-eval';
}

/** Spec: 'Security Issues' when any source is risky, otherwise 'Valid'. */
export function policyBadge(rules: CspRules): PolicyBadge {
  return Object.values(rules).some((sources) => sources.some(isRiskySource)) ? 'Security Issues' : 'Valid';
}

/** Spec section 9, in the order the panel lists them. */
export function securityRecommendations(rules: CspRules): Recommendation[] {
  const recommendations: Recommendation[] = [];
  const withInline = Object.entries(rules).filter(([, sources]) =>
    sources.some((s) => keywordName(s) === 'unsafe-inline'),
  );
  if (withInline.length > 0) {
    // A strict policy keeps 'unsafe-inline' beside its nonce/hashes as a fallback CSP2+ browsers ignore;
    // the spec still flags it, and the description says what it really does there.
    const onlyFallback = withInline.every(([directive, sources]) =>
      ignoredSources(directive, sources).has("'unsafe-inline'"),
    );
    recommendations.push({
      type: 'warning',
      priority: 'high',
      title: 'Remove unsafe-inline',
      description: onlyFallback
        ? "'unsafe-inline' is only a fallback here: browsers that support nonces or hashes ignore it. Remove it if you do not need to support very old browsers."
        : "'unsafe-inline' lets any injected inline script or style run, which defeats most of a CSP's protection against XSS. Allow inline code by hash or nonce instead.",
    });
  }
  if (!rules['report-uri']) {
    recommendations.push({
      type: 'info',
      priority: 'medium',
      title: 'Add report-uri',
      description:
        'Add a report-uri directive so browsers report blocked resources to you; without it, violations go unnoticed.',
    });
  }
  recommendations.push({
    type: 'success',
    priority: 'high',
    title: 'Test in report-only mode',
    description:
      'Deploy the policy as Content-Security-Policy-Report-Only first and watch the reports before enforcing it.',
  });
  return recommendations;
}
