// Domain screen 'Quick Stats': total analyses, success rate (percent completed, or N/A) and status.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ChartBar } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCount } from '@/lib/format';
import { StatListCard, type StatRow } from './stat-list-card';

/** Spec section 9: the percent of completed analyses, or N/A when there are none. */
export function successRate(analyses: Pick<Analysis, 'status'>[]): string {
  if (analyses.length === 0) return 'N/A';
  const completed = analyses.filter((a) => a.status === 'completed').length;
  return `${Math.round((completed / analyses.length) * 100)}%`;
}

export function QuickStatsCard({ analyses, status }: { analyses: Analysis[]; status: ReactNode }) {
  const rows: StatRow[] = [
    ['Total analyses', formatCount(analyses.length), 'Every analysis of this domain, whatever its state.'],
    [
      'Success rate',
      successRate(analyses),
      'The share of this domain’s analyses that completed (N/A before the first).',
    ],
    [
      'Status',
      status,
      'Active domains are scanned and their violation reports collected; inactive ones are not.',
    ],
  ];
  return <StatListCard icon={ChartBar} title="Quick Stats" rows={rows} testId="quick-stats" />;
}
