// 'Crawl coverage': how complete and trustworthy the crawl's capture was. Pages that did not finish (the
// policy may be incomplete), resources that only appeared after acting on pages, requests the crawler
// answered instead of sending, navigations it blocked, and inline code that changes on every load.
import type { CaptureSummary } from '@csp/shared/schemas/analysis';
import {
  CircleCheck,
  FileWarning,
  FileX,
  type LucideIcon,
  MousePointerClick,
  Radar,
  RefreshCcw,
  Send,
  ShieldBan,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/class-names';
import { countOf, formatCount, formatDuration } from '@/lib/format';
import { CRAWLED_PAGES_HASH } from './crawled-pages-card';
import { IncompletePagesList } from './incomplete-pages-list';
import { InteractionSamplesList } from './interaction-samples-list';
import { UnstableInlineList } from './unstable-inline-list';

export function CrawlCoverageCard({ capture }: { capture: CaptureSummary }) {
  const incomplete = capture.pagesIncomplete > 0;
  // A URL that answered an error (a 404 of the URL list) or nothing was tried but not captured: it counts.
  const failed = (capture.pagesFailed ?? 0) + (capture.urlsFailed ?? 0);
  const tried = capture.pagesCaptured + (capture.urlsFailed ?? 0);
  const answered = capture.pagesCaptured - (capture.pagesFailed ?? 0);
  const unstable = capture.unstableInline.length;
  const timing = [
    capture.interactionMs > 0 ? `acting on pages ${formatDuration(capture.interactionMs)}` : null,
    capture.rerenderMs > 0 ? `re-rendering ${formatDuration(capture.rerenderMs)}` : null,
  ].filter(Boolean);
  return (
    <Card data-testid="crawl-coverage" className={incomplete || failed > 0 ? 'border-red-200' : undefined}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Radar className="size-4 text-primary" aria-hidden="true" />
          Crawl coverage
        </CardTitle>
        <CardDescription>How complete the capture of the pages was.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col gap-4">
          {failed > 0 ? (
            <Fact icon={FileX} tone="error" testId="coverage-failed">
              <p className="font-medium text-red-800">
                {formatCount(failed)} of {countOf(tried, 'URL')} failed
              </p>
              <p className="text-red-800/80">
                {failed === 1 ? 'It' : 'They'} answered an HTTP error or nothing, so nothing{' '}
                {failed === 1 ? 'it loads' : 'they load'} is in the policy.{' '}
                <a href={CRAWLED_PAGES_HASH} className="font-medium underline underline-offset-2">
                  See the crawled pages
                </a>
              </p>
            </Fact>
          ) : null}
          {incomplete ? (
            <Fact icon={FileWarning} tone="error" testId="coverage-incomplete">
              <p className="font-medium text-red-800">
                {formatCount(capture.pagesIncomplete)} of {countOf(answered, 'page')} incomplete
              </p>
              <p className="text-red-800/80">
                The policy may be incomplete: these pages stopped before everything they load or run was
                recorded.
              </p>
              <IncompletePagesList capture={capture} />
            </Fact>
          ) : (
            <Fact icon={CircleCheck} tone="success" testId="coverage-complete">
              <p className="font-medium text-foreground">
                {failed > 0
                  ? answered === 1
                    ? 'The page that answered was captured completely'
                    : `All ${formatCount(answered)} pages that answered were captured completely`
                  : answered === 1
                    ? 'The page was captured completely'
                    : `All ${formatCount(answered)} pages captured completely`}
              </p>
            </Fact>
          )}

          {capture.interactionObservations > 0 ? (
            <Fact icon={MousePointerClick} testId="coverage-interaction">
              <p className="font-medium text-foreground">
                {countOf(capture.interactionObservations, 'resource')} appeared only after interaction
              </p>
              <p className="text-muted-foreground">
                The crawler opened menus, hovered and selected to find them; they are in the policy.
              </p>
              <InteractionSamplesList capture={capture} />
            </Fact>
          ) : null}

          {capture.writesAnswered > 0 ? (
            <Fact icon={Send} testId="coverage-writes">
              <p className="font-medium text-foreground">
                {countOf(capture.writesAnswered, 'request')} the page tried to send{' '}
                {capture.writesAnswered === 1 ? 'was' : 'were'} answered by the crawler (never sent)
              </p>
            </Fact>
          ) : null}

          {capture.navigationsBlocked > 0 ? (
            <Fact icon={ShieldBan} testId="coverage-navigations">
              <p className="font-medium text-foreground">
                {countOf(capture.navigationsBlocked, 'navigation')} blocked
              </p>
              <p className="text-muted-foreground">
                Pages of the same site they led to were crawled instead.
              </p>
            </Fact>
          ) : null}

          {capture.pagesRerendered > 0 ? (
            <Fact icon={RefreshCcw} tone={unstable > 0 ? 'warning' : 'neutral'} testId="coverage-rerender">
              <p className="font-medium text-foreground">
                {countOf(capture.pagesRerendered, 'page')} re-rendered:{' '}
                {unstable === 0
                  ? 'no inline code changed between loads'
                  : `${countOf(unstable, 'inline item')} ${unstable === 1 ? 'changes' : 'change'} on every load`}
              </p>
              {unstable > 0 ? (
                <>
                  <p className="text-muted-foreground">
                    A hash cannot allow code that changes: these need a nonce or a change to the page.
                  </p>
                  <UnstableInlineList items={capture.unstableInline} />
                </>
              ) : null}
            </Fact>
          ) : null}
        </ul>
        {timing.length > 0 ? (
          <p className="mt-4 border-t border-border pt-3 text-xs text-muted-foreground">
            Time spent {timing.join(', ')} (summed over tabs).
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

const FACT_TONES = {
  neutral: 'bg-slate-100 text-slate-500 ring-slate-200',
  success: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
  warning: 'bg-amber-50 text-amber-600 ring-amber-100',
  error: 'bg-red-50 text-red-600 ring-red-100',
} as const;

/** One line of the card: an icon tile and what it says, with room for a list below. */
function Fact({
  icon: Icon,
  tone = 'neutral',
  testId,
  children,
}: {
  icon: LucideIcon;
  tone?: keyof typeof FACT_TONES;
  testId: string;
  children: ReactNode;
}) {
  return (
    <li className="flex gap-3" data-testid={testId}>
      <span
        className={cn('flex size-8 shrink-0 items-center justify-center rounded-lg ring-1', FACT_TONES[tone])}
        aria-hidden="true"
      >
        <Icon className="size-4" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm">{children}</div>
    </li>
  );
}
