// Dashboard (spec "Dashboard"): welcome, actions, summary cards, domains, recent activity, achievements.
import type { LucideIcon } from 'lucide-react';
import { Activity, ChartBar, Globe, ScanSearch, Settings, Shield, ShieldCheck, Trophy } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/layouts/app-layout';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { buttonVariants } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { useAchievementStats } from '@/features/achievements/api/get-achievement-stats';
import { useAchievements } from '@/features/achievements/api/get-achievements';
import { AchievementsCard } from '@/features/achievements/components/achievements-card';
import { useAnalyses } from '@/features/analyses/api/get-analyses';
import { isActiveAnalysis } from '@/features/analyses/components/analysis-status-badge';
import { RecentActivityCard } from '@/features/analyses/components/recent-activity-card';
import { useUser } from '@/features/auth/api/get-user';
import { LogoutButton } from '@/features/auth/components/logout-button';
import { useDomains } from '@/features/domains/api/get-domains';
import { DomainsCard } from '@/features/domains/components/domains-card';
import { cn } from '@/lib/class-names';
import { formatCount } from '@/lib/format';

export function DashboardRoute() {
  const user = useUser().data;
  const signedIn = Boolean(user);
  const domains = useDomains({ enabled: signedIn });
  const analyses = useAnalyses({ enabled: signedIn });
  const achievements = useAchievements({ enabled: signedIn });
  const stats = useAchievementStats({ enabled: signedIn });

  // Spec: a full-screen 'Loading...' while the user or any of the three lists is loading.
  if (!user || domains.isLoading || analyses.isLoading || achievements.isLoading)
    return <FullScreenLoading />;

  const domainList = domains.data ?? [];
  const analysisList = analyses.data ?? [];
  const achievementList = achievements.data ?? [];
  const activeScans = analysisList.filter((a) => isActiveAnalysis(a.status)).length;
  const achievementCount = stats.data?.totalAchievements ?? achievementList.length;

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
        <StatCard
          icon={Globe}
          label="Total Domains"
          value={domains.error ? '—' : formatCount(domainList.length)}
          hint="Registered websites"
          tone="indigo"
        />
        <StatCard
          icon={ChartBar}
          label="Total Analyses"
          value={analyses.error ? '—' : formatCount(analysisList.length)}
          hint="Crawls run so far"
          tone="blue"
        />
        <StatCard
          icon={Activity}
          label="Active Scans"
          value={analyses.error ? '—' : formatCount(activeScans)}
          hint="Pending or running"
          tone="amber"
          pulse={activeScans > 0}
        />
        <StatCard
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
        />
        <StatCard
          icon={ShieldCheck}
          label="Security Score"
          value={<span className="text-emerald-600">A+</span>}
          hint="Overall rating"
          tone="emerald"
          className="col-span-2 md:col-span-1"
        />
      </section>

      <div className="grid gap-6 lg:grid-cols-5">
        <div className="lg:col-span-3">
          <DomainsCard domains={domainList} error={domains.error} />
        </div>
        <div className="lg:col-span-2">
          <RecentActivityCard analyses={analysisList} error={analyses.error} />
        </div>
      </div>

      <AchievementsCard achievements={achievementList} stats={stats.data} error={achievements.error} />
    </>
  );
}

const TONES = {
  indigo: 'bg-indigo-50 text-indigo-600 ring-indigo-100',
  blue: 'bg-blue-50 text-blue-600 ring-blue-100',
  amber: 'bg-amber-50 text-amber-600 ring-amber-100',
  violet: 'bg-violet-50 text-violet-600 ring-violet-100',
  emerald: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
} as const;

function StatCard({
  icon: Icon,
  label,
  value,
  hint,
  tone,
  pulse = false,
  className,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  hint: string;
  tone: keyof typeof TONES;
  pulse?: boolean;
  className?: string;
}) {
  return (
    <Card className={cn('flex flex-col gap-3 p-4 sm:p-5', className)} data-testid="stat-card">
      <div className="flex items-start justify-between gap-2">
        <span className="text-sm font-medium text-muted-foreground">{label}</span>
        <span
          className={cn(
            'relative flex size-8 shrink-0 items-center justify-center rounded-lg ring-1',
            TONES[tone],
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
          {pulse ? (
            <span
              className="absolute -top-0.5 -right-0.5 size-2 animate-ping rounded-full bg-amber-500"
              aria-hidden="true"
            />
          ) : null}
        </span>
      </div>
      <div className="flex flex-col gap-0.5">
        <div className="text-2xl font-semibold tracking-tight tabular-nums text-foreground sm:text-3xl">
          {value}
        </div>
        <span className="text-xs text-muted-foreground">{hint}</span>
      </div>
    </Card>
  );
}
