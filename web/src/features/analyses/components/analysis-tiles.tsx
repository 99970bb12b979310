// Headline tiles of an analysis: progress, resources, domains and security issues, each with a tooltip
// saying what it counts. Issues come from the policy's audit: the same findings as the badge and the grade.
import { isIssue } from '@csp/shared/csp/grade';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { Gauge, Globe, Package, ShieldAlert } from 'lucide-react';
import { StatTile } from '@/components/ui/stat-tile';
import { formatCount } from '@/lib/format';
import { monotonicProgress } from '../utils/progress';
import { CRAWLED_RESOURCES_HASH } from './crawled-pages-card';

const count = (n: number | undefined) => (n === undefined ? '—' : formatCount(n));

/** What the Issues tile says under its number: the first issue itself, not just that there is one. */
function issuesHint(analysis: Analysis, issues: number | undefined): string {
  if (issues === undefined) return 'Known when complete';
  if (issues === 0) return 'No high or medium finding';
  const first = analysis.audit?.findings.find(isIssue);
  if (!first) return 'See Policy findings';
  const what = `${first.directive}${first.value ? ` ${first.value}` : ''}`;
  return issues > 1 ? `${what} and ${issues - 1} more` : what;
}

export function AnalysisTiles({ analysis }: { analysis: Analysis }) {
  const stats = analysis.resourceStats;
  const issues = analysis.audit?.issues ?? stats?.securityIssues;
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
        tooltip="How far the crawl has come (discovering, crawling, re-rendering, generating, verifying), and the pages it crawled."
      />
      <StatTile
        icon={Package}
        label="Resources"
        value={count(stats?.totalResources)}
        hint={stats ? 'Loaded or run by the pages · see the list' : 'Loaded or run by the pages'}
        href={stats && analysis.status === 'completed' ? CRAWLED_RESOURCES_HASH : undefined}
        linkLabel={`${count(stats?.totalResources)} resources: show them by directive, and the crawled pages`}
        tone="blue"
        tooltip="Distinct URLs the pages loaded plus distinct inline scripts and styles (a logo on 500 pages counts once)."
      />
      <StatTile
        icon={Globe}
        label="Domains"
        value={count(stats?.uniqueDomains)}
        hint="Distinct origins"
        tone="emerald"
        tooltip="Distinct host names the pages loaded from over http, https, ws or wss, the site's own included."
      />
      <StatTile
        icon={ShieldAlert}
        label="Issues"
        value={count(issues)}
        hint={issuesHint(analysis, issues)}
        tone={issues ? 'amber' : 'slate'}
        tooltip="High and medium findings of the policy's audit (our checks and CSP Evaluator): the same list that sets the badge and the grade. Each is explained, with its fix, under Policy findings."
      />
    </section>
  );
}
