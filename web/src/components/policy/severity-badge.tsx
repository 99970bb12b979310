// A finding's severity as a badge: high in red, medium in amber, low in blue, info in grey.
import type { Severity } from '@csp/shared/csp/finding';
import { Badge, type BadgeVariant } from '@/components/ui/badge';

const VARIANTS: Record<Severity, BadgeVariant> = {
  high: 'destructive',
  medium: 'warning',
  low: 'info',
  info: 'secondary',
};

export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <Badge variant={VARIANTS[severity]} className="capitalize" data-severity={severity}>
      {severity}
    </Badge>
  );
}
