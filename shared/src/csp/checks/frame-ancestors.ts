// Clickjacking: who may frame the pages. csp_evaluator does not check it.
import { auditFinding, type PolicyCheck } from './check';

/**
 * low: without frame-ancestors (which default-src does not cover) any site can frame the pages and trick
 * users into clicks. Fires on `default-src 'self'`.
 */
export const frameAncestorsCheck: PolicyCheck = (policy) =>
  policy.rules['frame-ancestors']
    ? []
    : [
        auditFinding({
          severity: 'low',
          directive: 'frame-ancestors',
          code: 'missing-frame-ancestors',
          description:
            'No frame-ancestors: any site can show your pages in a frame and trick visitors into clicks (clickjacking). default-src does not cover it.',
          fix: "Add frame-ancestors 'self' (or 'none' if the pages are never framed).",
        }),
      ];
