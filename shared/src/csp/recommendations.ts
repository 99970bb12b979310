// The spec's Security Recommendations panel (section 9), read from a policy's audit findings.
import * as z from 'zod';
import type { PolicyAudit } from './policy-audit';

export const recommendationSchema = z.object({
  type: z.enum(['warning', 'info', 'success']),
  priority: z.enum(['high', 'medium']),
  title: z.string(),
  description: z.string(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

/** Spec section 9, in the order the panel lists them. */
export function securityRecommendations(audit: Pick<PolicyAudit, 'findings'>): Recommendation[] {
  const recommendations: Recommendation[] = [];
  const codes = new Set(audit.findings.map((f) => f.code));
  // Spec: when any directive contains 'unsafe-inline'. Where a nonce or hash makes browsers ignore it, the
  // audit says so (unsafe-inline-fallback) and the description tells what it really does there.
  if (codes.has('unsafe-inline') || codes.has('unsafe-inline-fallback')) {
    recommendations.push({
      type: 'warning',
      priority: 'high',
      title: 'Remove unsafe-inline',
      description: codes.has('unsafe-inline')
        ? "'unsafe-inline' lets any injected inline script or style run, which defeats most of a CSP's protection against XSS. Allow inline code by hash or nonce instead."
        : "'unsafe-inline' is only a fallback here: browsers that support nonces or hashes ignore it. Remove it if you do not need to support very old browsers.",
    });
  }
  if (codes.has('missing-report-uri') || codes.has('report-to-only')) {
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
