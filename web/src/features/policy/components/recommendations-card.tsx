// 'Security Recommendations' (spec section 9), from securityRecommendations() of the shown policy's audit.

import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import { type Recommendation, securityRecommendations } from '@csp/shared/csp/recommendations';
import { CircleCheck, Info, Lightbulb, type LucideIcon, TriangleAlert } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/class-names';

const STYLES: Record<Recommendation['type'], { Icon: LucideIcon; tile: string }> = {
  warning: { Icon: TriangleAlert, tile: 'bg-amber-50 text-amber-600 ring-amber-100' },
  info: { Icon: Info, tile: 'bg-blue-50 text-blue-600 ring-blue-100' },
  success: { Icon: CircleCheck, tile: 'bg-emerald-50 text-emerald-600 ring-emerald-100' },
};

export function RecommendationsCard({ audit }: { audit: PolicyAudit }) {
  const recommendations = securityRecommendations(audit);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Lightbulb className="size-4 text-primary" aria-hidden="true" />
          Security Recommendations
        </CardTitle>
        <CardDescription>What to do before you enforce this policy.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-3" data-testid="recommendations">
          {recommendations.map((r) => {
            const { Icon, tile } = STYLES[r.type];
            return (
              <li key={r.title} className="flex gap-3 rounded-lg border border-border p-3">
                <span
                  className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg ring-1', tile)}
                  aria-hidden="true"
                >
                  <Icon className="size-4" />
                </span>
                <div className="flex min-w-0 flex-col gap-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-sm font-medium text-foreground">{r.title}</span>
                    <Badge variant={r.priority === 'high' ? 'info' : 'secondary'} className="capitalize">
                      {r.priority} priority
                    </Badge>
                  </div>
                  <p className="text-sm text-muted-foreground">{r.description}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
