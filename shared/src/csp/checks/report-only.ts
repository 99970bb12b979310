// A report-only policy watches; it does not protect.
import { auditFinding, type PolicyCheck } from './check';

/**
 * info: delivered as Content-Security-Policy-Report-Only, the policy blocks nothing; it only reports. The
 * grade describes the policy as it would be enforced. Fires on any policy audited with reportOnly.
 */
export const reportOnlyCheck: PolicyCheck = (_policy, context) =>
  context.reportOnly
    ? [
        auditFinding({
          severity: 'info',
          directive: '',
          code: 'report-only',
          description:
            'Report-only: browsers report what this policy would block but block nothing. The grade is what the policy will give once enforced.',
          fix: 'Enforce it (Content-Security-Policy) once the reports show nothing you need is blocked.',
        }),
      ]
    : [];
