// Dashboard (spec "Dashboard"): welcome, actions, summary cards (each with a tooltip; the Security Score
// is the mean grade of the domains' latest policies), domains, recent activity, achievements.
import type { Grade } from '@csp/shared/csp/grade';
import { Activity, ChartBar, Globe, ScanSearch, Settings, Shield, ShieldCheck, Trophy } from 'lucide-react';
import { Link } from 'react-router-dom';
import { isActiveAnalysis } from '@/components/analysis-status-badge';
import { PageHeader } from '@/components/layouts/app-layout';
import { DeferredMount } from '@/components/layouts/deferred-mount';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { GRADE_EXPLANATION } from '@/components/policy/policy-verdict';
import { buttonVariants } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { StatTile } from '@/components/ui/stat-tile';
import { useAchievementProgress } from '@/features/achievements/api/get-achievement-progress';
import { useAchievementStats } from '@/features/achievements/api/get-achievement-stats';
import { useAchievements } from '@/features/achievements/api/get-achievements';
import { AchievementsCard } from '@/features/achievements/components/achievements-card';
import { useAnalyses } from '@/features/analyses/api/get-analyses';
import { RecentActivityCard } from '@/features/analyses/components/recent-activity-card';
import { securityScore } from '@/features/analyses/utils/security-score';
import { useUser } from '@/features/auth/api/get-user';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { useDomains } from '@/features/domains/api/get-domains';
import { DomainsCard } from '@/features/domains/components/domains-card';
import { countOf, formatCount } from '@/lib/format';

const GRADE_COLORS: Record<Grade, string> = {
  'A+': 'text-emerald-600',
  A: 'text-emerald-600',
  B: 'text-blue-600',
  C: 'text-amber-600',
  D: 'text-red-600',
  F: 'text-red-600',
};

export function DashboardRoute() {
  const user = useUser().data;
  const signedIn = Boolean(user);
  const domains = useDomains({ enabled: signedIn });
  const analyses = useAnalyses({ enabled: signedIn });
  const achievements = useAchievements({ enabled: signedIn });
  const stats = useAchievementStats({ enabled: signedIn });
  const progress = useAchievementProgress({ enabled: signedIn });

  // Spec: a full-screen 'Loading...' while the user or any of the three lists is loading.
  if (!user || domains.isLoading || analyses.isLoading || achievements.isLoading)
    return <FullScreenLoading />;

  const domainList = domains.data ?? [];
  const analysisList = analyses.data ?? [];
  const achievementList = achievements.data ?? [];
  const activeScans = analysisList.filter((a) => isActiveAnalysis(a.status)).length;
  const achievementCount = stats.data?.totalAchievements ?? achievementList.length;
  const score = securityScore(analysisList);

  return (
    <>
      <PageHeader
        title={`Welcome back, ${user.firstName || 'User'}!`}
        description="Manage your domains and monitor CSP analysis results"
        actions={
          <>
            <Link to="/csp-generator" className={buttonVariants()}>
              <ScanSearch aria-hidden="true" />
              CSP Analyzer
            </Link>
            {user.role === 'admin' ? (
              <Link to="/admin" className={buttonVariants({ variant: 'outline' })}>
                <Shield aria-hidden="true" />
                Admin Panel
              </Link>
            ) : null}
            <Link to="/settings" className={buttonVariants({ variant: 'outline' })}>
              <Settings aria-hidden="true" />
              Settings
            </Link>
            <LogoutButton />
          </>
        }
      />

      <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
        <StatTile
          testId="stat-card"
          icon={Globe}
          label="Total Domains"
          value={domains.error ? '—' : formatCount(domainList.length)}
          hint="Registered websites"
          tone="indigo"
          tooltip="The websites you have added, active or not."
        />
        <StatTile
          testId="stat-card"
          icon={ChartBar}
          label="Total Analyses"
          value={analyses.error ? '—' : formatCount(analysisList.length)}
          hint="Crawls run so far"
          tone="blue"
          tooltip="Every analysis you started, for your domains and with the CSP Analyzer, whatever its state."
        />
        <StatTile
          testId="stat-card"
          icon={Activity}
          label="Active Scans"
          value={analyses.error ? '—' : formatCount(activeScans)}
          hint="Pending or running"
          tone="amber"
          pulse={activeScans > 0}
          tooltip="Analyses waiting for a crawler or crawling now."
        />
        <StatTile
          testId="stat-card"
          icon={Trophy}
          label="Achievements"
          value={
            stats.isLoading ? (
              <Skeleton className="h-7 w-10" />
            ) : achievements.error ? (
              '—'
            ) : (
              formatCount(achievementCount)
            )
          }
          hint="Unlocked"
          tone="violet"
          tooltip="Achievements you have unlocked; their points and rarities are listed below."
        />
        <StatTile
          testId="stat-card"
          icon={ShieldCheck}
          label="Security Score"
          value={
            <span
              className={score ? GRADE_COLORS[score.grade] : 'text-muted-foreground'}
              data-testid="security-score"
            >
              {analyses.error || !score ? '—' : score.grade}
            </span>
          }
          hint={
            score
              ? `Mean of ${countOf(score.policies, 'domain')}: ${score.score}/100`
              : 'No completed analysis yet'
          }
          tone="emerald"
          className="col-span-2 md:col-span-1"
          tooltip={`The mean score of each domain's latest completed analysis (its generated policy), as a grade. ${GRADE_EXPLANATION}`}
        />
      </section>

      {/* The cards below the summary render a frame after it (see DeferredMount): rendered with it, the
          whole dashboard was one task of some 200 ms on a phone, during which a tap went unanswered. */}
      <DeferredMount fallback={<Skeleton className="h-96 w-full rounded-xl" />}>
        <div className="grid gap-6 lg:grid-cols-5">
          <div className="lg:col-span-3">
            <DomainsCard domains={domainList} error={domains.error} />
          </div>
          <div className="lg:col-span-2">
            <RecentActivityCard analyses={analysisList} error={analyses.error} />
          </div>
        </div>

        <AchievementsCard
          achievements={achievementList}
          stats={stats.data}
          progress={progress.data ?? []}
          error={achievements.error}
        />
      </DeferredMount>
    </>
  );
}
