// How long the policy came out against the budget it was fitted to: "Header: 3,912 of 4,096 bytes" (the
// whole header line) or "CloudFront value: 1,650 of 1,783 characters", in red when it does not fit.
import type { PolicyBudget } from '@csp/shared/csp/policy';
import { Ruler } from 'lucide-react';
import { cn } from '@/lib/class-names';
import { formatCount } from '@/lib/format';

export function budgetText(budget: PolicyBudget): string {
  return budget.target === 'cloudfront'
    ? `CloudFront value: ${formatCount(budget.length)} of ${formatCount(budget.limit)} characters`
    : `Header: ${formatCount(budget.length)} of ${formatCount(budget.limit)} bytes`;
}

export function PolicyBudgetLine({ budget }: { budget: PolicyBudget }) {
  const share = budget.limit > 0 ? Math.min(100, (budget.length / budget.limit) * 100) : 100;
  return (
    <div
      className={cn(
        'flex flex-col gap-2 rounded-lg border px-3.5 py-2.5 text-sm',
        budget.fits ? 'border-border bg-slate-50/60' : 'border-red-200 bg-red-50',
      )}
      data-testid="policy-budget"
      data-fits={budget.fits}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span
          className={cn(
            'flex items-center gap-2 font-medium tabular-nums',
            budget.fits ? 'text-foreground' : 'text-red-800',
          )}
        >
          <Ruler
            className={cn('size-4 shrink-0', budget.fits ? 'text-muted-foreground' : 'text-red-600')}
            aria-hidden="true"
          />
          {budgetText(budget)}
        </span>
        <span className={cn('text-xs', budget.fits ? 'text-muted-foreground' : 'font-medium text-red-700')}>
          {budget.fits
            ? 'Fits the budget'
            : budget.target === 'cloudfront'
              ? 'Too long for a CloudFront response-headers policy'
              : 'Too long: servers and proxies may reject the response'}
        </span>
      </div>
      <div
        className="h-1.5 w-full overflow-hidden rounded-full bg-slate-200/80"
        // The line above says the figures; the bar only draws them.
        aria-hidden="true"
      >
        <div
          className={cn('h-full rounded-full', budget.fits ? 'bg-primary/70' : 'bg-destructive')}
          // Set through the CSSOM, which a strict style-src allows.
          style={{ width: `${share}%` }}
        />
      </div>
    </div>
  );
}
