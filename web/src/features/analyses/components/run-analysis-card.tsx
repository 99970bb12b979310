// Domain screen: 'Quick Start Analysis' and the collapsible 'Advanced Settings' form.
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { INACTIVE_DOMAIN } from '@csp/shared/schemas/domain-messages';
import { ChevronDown, Radar, SlidersHorizontal } from 'lucide-react';
import { lazy, Suspense, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/class-names';
import { formatCount } from '@/lib/format';
import { StartAnalysisButton } from './start-analysis-button';

// The advanced form (and the crawl request's schema it validates with, zod among it) loads when opened: the
// domain screen's first view, where this card is, does without it.
const loadAdvancedForm = () => import('./advanced-crawl-form');
const AdvancedCrawlForm = lazy(() => loadAdvancedForm().then((m) => ({ default: m.AdvancedCrawlForm })));

/** The line saying why an inactive domain is not scanned: every disabled start points to it. */
export const INACTIVE_REASON_ID = 'inactive-domain-reason';

export function RunAnalysisCard({
  domainId,
  domainUrl,
  inactive = false,
  onStarted,
  onRefused,
}: {
  domainId: string;
  domainUrl: string;
  /** An inactive domain is not scanned: the starts are disabled and the card says why. */
  inactive?: boolean;
  onStarted?: () => void;
  /** The API refused the start (the domain was deactivated since the screen loaded it). */
  onRefused?: () => void;
}) {
  const [advanced, setAdvanced] = useState(false);
  const panelId = useId();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Radar className="size-4 text-primary" aria-hidden="true" />
          Run an Analysis
        </CardTitle>
        <CardDescription>
          A headless browser crawls the site, records every resource its pages load or run, and generates a
          policy from them.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div className="flex flex-col gap-3 rounded-lg border border-border bg-slate-50/60 p-4 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex flex-col gap-0.5">
            <span className="text-sm font-medium text-foreground">Quick start</span>
            <span className="text-sm text-muted-foreground">
              Up to {formatCount(CRAWL_LIMITS.maxPages.default)} pages,{' '}
              {formatCount(CRAWL_LIMITS.crawlDelay.default / 1000)} s between requests.
            </span>
          </div>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button
              variant="outline"
              disabled={inactive}
              aria-describedby={inactive ? INACTIVE_REASON_ID : undefined}
              aria-expanded={advanced}
              aria-controls={panelId}
              onClick={() => setAdvanced((v) => !v)}
              // Fetched as the pointer or focus arrives, so it is usually there by the click.
              onPointerEnter={() => void loadAdvancedForm()}
              onFocus={() => void loadAdvancedForm()}
            >
              <SlidersHorizontal aria-hidden="true" />
              Advanced Settings
              <ChevronDown
                className={cn('transition-transform', advanced && 'rotate-180')}
                aria-hidden="true"
              />
            </Button>
            <StartAnalysisButton
              domainId={domainId}
              onStarted={onStarted}
              onRefused={onRefused}
              disabled={inactive}
              aria-describedby={inactive ? INACTIVE_REASON_ID : undefined}
            />
          </div>
        </div>
        {inactive ? (
          <p id={INACTIVE_REASON_ID} className="text-sm text-muted-foreground" data-testid="inactive-reason">
            {INACTIVE_DOMAIN}
          </p>
        ) : null}
        {advanced && !inactive ? (
          <div id={panelId} className="animate-fade-in">
            <Suspense
              fallback={
                <LoadingBlock label="Loading the form...">
                  <Skeleton className="h-72 w-full rounded-lg" />
                </LoadingBlock>
              }
            >
              <AdvancedCrawlForm
                domainId={domainId}
                domainUrl={domainUrl}
                onRefused={onRefused}
                onStarted={() => {
                  setAdvanced(false);
                  onStarted?.();
                }}
              />
            </Suspense>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
