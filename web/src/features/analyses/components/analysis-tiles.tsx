// Headline tiles of an analysis: progress, resources, domains and security issues.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { Gauge, Globe, type LucideIcon, Package, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/class-names';
import { formatCount } from '@/lib/format';
import { monotonicProgress } from '../utils/progress';

const TONES = {
  indigo: 'bg-indigo-50 text-indigo-600 ring-indigo-100',
  blue: 'bg-blue-50 text-blue-600 ring-blue-100',
  emerald: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
  amber: 'bg-amber-50 text-amber-600 ring-amber-100',
  slate: 'bg-slate-100 text-slate-500 ring-slate-200',
} as const;

export function StatTile({
  icon: Icon,
  label,
  value,
  hint,
  tone,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone: keyof typeof TONES;
}) {
  return (
    <Card className="flex flex-col gap-3 p-4 sm:p-5" data-testid="stat-tile">
      <div className="flex items-start justify-between gap-2">
        <span className="text-sm font-medium text-muted-foreground">{label}</span>
        <span
          className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg ring-1', TONES[tone])}
          aria-hidden="true"
        >
          <Icon className="size-4" />
        </span>
      </div>
      <div className="flex flex-col gap-0.5">
        <div className="text-2xl font-semibold tracking-tight tabular-nums text-foreground sm:text-3xl">
          {value}
        </div>
        {hint ? <span className="text-xs text-muted-foreground">{hint}</span> : null}
      </div>
    </Card>
  );
}

const count = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));

export function AnalysisTiles({ analysis }: { analysis: Analysis }) {
  const stats = analysis.resourceStats;
  const issues = stats?.securityIssues;
  // A failed analysis stopped where it was: its last percent (often 99 %) would read as nearly done.
  const failed = analysis.status === 'failed';
  return (
    <section aria-label="Analysis summary" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatTile
        icon={Gauge}
        label="Progress"
        value={failed ? 'Failed' : `${monotonicProgress(analysis)}%`}
        hint={`${formatCount(analysis.totalPages)} ${analysis.totalPages === 1 ? 'page' : 'pages'}`}
        tone={failed ? 'slate' : 'indigo'}
      />
      <StatTile
        icon={Package}
        label="Resources"
        value={count(stats?.totalResources)}
        hint="Loaded or run by the pages"
        tone="blue"
      />
      <StatTile
        icon={Globe}
        label="Domains"
        value={count(stats?.uniqueDomains)}
        hint="Distinct origins"
        tone="emerald"
      />
      <StatTile
        icon={ShieldAlert}
        label="Issues"
        value={count(issues)}
        hint={
          issues === undefined ? 'Known when complete' : issues === 0 ? 'No risky sources' : 'Risky sources'
        }
        tone={issues ? 'amber' : 'slate'}
      />
    </section>
  );
}
