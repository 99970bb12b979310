// Standalone generator 'Analysis Summary': pages, total resources, unique domains, security issues and the
// analysis time (completedAt − startedAt, or N/A).
import type { Analysis } from '@csp/shared/schemas/analysis';
import { ChartBar } from 'lucide-react';
import { durationBetween, formatCount } from '@/lib/format';
import { StatListCard, type StatRow } from './stat-list-card';

export function AnalysisSummaryCard({ analysis }: { analysis: Analysis }) {
  const stats = analysis.resourceStats;
  const count = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));
  const issues = analysis.audit?.issues ?? stats?.securityIssues;
  const rows: StatRow[] = [
    ['Pages Crawled', formatCount(analysis.totalPages), 'Pages the crawler loaded and recorded.'],
    [
      'Total Resources',
      count(stats?.totalResources),
      'Distinct URLs the pages loaded plus distinct inline scripts and styles.',
    ],
    ['Unique Domains', count(stats?.uniqueDomains), 'Distinct host names the pages loaded from.'],
    [
      'Security Issues',
      <span key="issues" className={issues ? 'text-amber-700' : undefined}>
        {count(issues)}
      </span>,
      'High and medium findings of the policy’s audit: the same list as the badge and the grade.',
    ],
    [
      'Analysis Time',
      durationBetween(analysis.startedAt, analysis.completedAt) ?? 'N/A',
      'From the first page crawled to the verified policy.',
    ],
  ];
  return <StatListCard icon={ChartBar} title="Analysis Summary" rows={rows} testId="analysis-summary" />;
}
