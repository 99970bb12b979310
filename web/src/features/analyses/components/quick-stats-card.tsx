// Domain screen 'Quick Stats': total analyses, success rate (percent of the finished ones completed, or N/A)
// and status.
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ChartBar } from 'lucide-react';
import type { ReactNode } from 'react';
import { formatCount } from '@/lib/format';
import { successRate } from '../utils/success-rate';
import { StatListCard, type StatRow } from './stat-list-card';

export function QuickStatsCard({ analyses, status }: { analyses: Analysis[]; status: ReactNode }) {
  const rows: StatRow[] = [
    ['Total analyses', formatCount(analyses.length), 'Every analysis of this domain, whatever its state.'],
    [
      'Success rate',
      successRate(analyses),
      'The share of this domain’s finished analyses that completed; one under way does not count (N/A before the first ends).',
    ],
    [
      'Status',
      status,
      'Active domains are scanned and their violation reports collected; inactive ones are not.',
    ],
  ];
  return <StatListCard icon={ChartBar} title="Quick Stats" rows={rows} testId="quick-stats" />;
}
