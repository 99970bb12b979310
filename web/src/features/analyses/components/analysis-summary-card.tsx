// Standalone generator 'Analysis Summary': pages, total resources, unique domains, security issues and the
// analysis time (completedAt − startedAt, or N/A).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ChartBar } from 'lucide-react';
import { durationBetween, formatCount } from '@/lib/format';
import { StatListCard, type StatRow } from './stat-list-card';

export function AnalysisSummaryCard({ analysis }: { analysis: Analysis }) {
  const stats = analysis.resourceStats;
  const count = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));
  const issues = stats?.securityIssues;
  const rows: StatRow[] = [
    ['Pages Crawled', formatCount(analysis.totalPages)],
    ['Total Resources', count(stats?.totalResources)],
    ['Unique Domains', count(stats?.uniqueDomains)],
    [
      'Security Issues',
      <span key="issues" className={issues ? 'text-amber-700' : undefined}>
        {count(issues)}
      </span>,
    ],
    ['Analysis Time', durationBetween(analysis.startedAt, analysis.completedAt) ?? 'N/A'],
  ];
  return <StatListCard icon={ChartBar} title="Analysis Summary" rows={rows} testId="analysis-summary" />;
}
