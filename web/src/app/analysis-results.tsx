// A completed analysis with rules: the policy card (flagged 'Needs attention' when it needs it) beside the
// crawl coverage, the policy's audit findings and the recommendations (for the shown mode), and whatever the
// caller adds to the side column, and below them the Trusted Types readiness and every page crawled. Older
// analyses without coverage show no coverage card.
import type { Analysis } from '@csp/shared/schemas/analysis';
import type { ReactNode } from 'react';
import { CrawlCoverageCard } from '@/features/analyses/components/crawl-coverage-card';
import { CrawledPagesCard } from '@/features/analyses/components/crawled-pages-card';
import { IntegrityCard } from '@/features/analyses/components/integrity-card';
import { TrustedTypesCard } from '@/features/analyses/components/trusted-types-card';
import { PolicyCard, usePolicyMode } from '@/features/policy/components/policy-card';
import { PolicyFindingsCard } from '@/features/policy/components/policy-findings-card';
import { RecommendationsCard } from '@/features/policy/components/recommendations-card';
import { policyNeedsAttention } from '@/features/policy/utils/verification';

export function AnalysisResults({
  analysis,
  asideTop,
  asideBottom,
}: {
  analysis: Analysis;
  /** Above the coverage and the recommendations (the generator's summary). */
  asideTop?: ReactNode;
  /** Below the recommendations (quick actions, errors). */
  asideBottom?: ReactNode;
}) {
  const { mode, setMode, rules, audit, hasStrict } = usePolicyMode(analysis);
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <PolicyCard
            rules={rules}
            audit={audit}
            verification={analysis.verification}
            needsAttention={policyNeedsAttention(analysis)}
            budget={analysis.budget}
            mode={mode}
            onModeChange={setMode}
            hasStrict={hasStrict}
          />
        </div>
        <aside className="flex min-w-0 flex-col gap-6" aria-label="Analysis insights">
          {asideTop}
          {analysis.capture ? <CrawlCoverageCard capture={analysis.capture} /> : null}
          {analysis.subresourceIntegrity ? (
            <IntegrityCard analysisId={analysis.id} proposal={analysis.subresourceIntegrity} />
          ) : null}
          <PolicyFindingsCard
            audit={audit}
            policy={mode === 'strict' ? 'strict policy' : 'allowlist policy'}
          />
          <RecommendationsCard audit={audit} />
          {asideBottom}
        </aside>
      </div>
      <TrustedTypesCard trustedTypes={analysis.trustedTypes} siteUrl={analysis.url} />
      <CrawledPagesCard analysisId={analysis.id} />
    </div>
  );
}
