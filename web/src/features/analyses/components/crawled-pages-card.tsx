// 'Crawled pages': every URL the crawl tried, with its status (an error or no answer listed as such) and what
// each page loaded, and the crawl's resources grouped by directive; one search over both. Opened from the
// Resources tile (#crawled-resources) or the coverage card (#crawled-pages).
import type { CrawledPage, CrawledPages } from '@csp/shared/schemas/crawled-pages';
import { pageFailed } from '@csp/shared/schemas/crawled-pages';
import { ChevronRight, FileSearch, ListTree, RefreshCw, Search } from 'lucide-react';
import { Fragment, useEffect, useId, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { countOf, formatCount } from '@/lib/format';
import { useCrawledPages } from '../api/get-crawled-pages';
import {
  type DirectiveGroup,
  groupByDirective,
  type PageStatusTone,
  pageStatus,
  searchPages,
} from '../utils/crawled-pages';

/** Hashes that open the card (the tiles and the coverage card link to them). */
export const CRAWLED_PAGES_HASH = '#crawled-pages';
export const CRAWLED_RESOURCES_HASH = '#crawled-resources';

type View = 'pages' | 'resources';
const CARD_ID = 'crawled-pages';

const viewOfHash = (hash: string): View | null =>
  hash === CRAWLED_RESOURCES_HASH ? 'resources' : hash === CRAWLED_PAGES_HASH ? 'pages' : null;

/**
 * A URL with break opportunities after its slashes and before its query and fragment, so a narrow screen wraps
 * it between path segments rather than inside one (a segment longer than the line still wraps anywhere).
 */
function BreakableUrl({ url }: { url: string }) {
  const parts = url.split(/(?<=\/)(?!\/)|(?=[?#&])/);
  return (
    <>
      {parts.map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, never reordered
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}

const BADGE: Record<PageStatusTone, BadgeVariant> = {
  success: 'success',
  warning: 'warning',
  error: 'destructive',
};

export function CrawledPagesCard({ analysisId }: { analysisId: string }) {
  const query = useCrawledPages(analysisId);
  const [view, setView] = useState<View>(() => viewOfHash(window.location.hash) ?? 'pages');

  // A link to one of the hashes (the Resources tile) opens the right view and brings the card into sight.
  useEffect(() => {
    const open = () => {
      const wanted = viewOfHash(window.location.hash);
      if (!wanted) return;
      setView(wanted);
      document.getElementById(CARD_ID)?.scrollIntoView({ block: 'start' });
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);

  return (
    <Card id={CARD_ID} data-testid="crawled-pages" className="min-w-0">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ListTree className="size-4 text-primary" aria-hidden="true" />
          Crawled pages
        </CardTitle>
        <CardDescription>Every URL the crawl tried, its answer, and what each page loaded.</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <LoadingBlock className="flex flex-col gap-2" label="Loading the crawled pages...">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-2/3" />
          </LoadingBlock>
        ) : query.isError ? (
          <Alert tone="error" role="alert" title="Could not load the crawled pages">
            <div className="flex flex-wrap items-center gap-3">
              <span>{query.error.message}</span>
              <Button
                variant="outline"
                size="sm"
                onClick={() => void query.refetch()}
                loading={query.isFetching}
              >
                <RefreshCw aria-hidden="true" />
                Retry
              </Button>
            </div>
          </Alert>
        ) : !query.data ? (
          <EmptyState
            icon={FileSearch}
            title="No list of pages for this analysis"
            description="Analyses completed before pages were listed have none: run the analysis again to see it."
          />
        ) : (
          <CrawledPagesBody list={query.data} view={view} onViewChange={setView} />
        )}
      </CardContent>
    </Card>
  );
}

function CrawledPagesBody({
  list,
  view,
  onViewChange,
}: {
  list: CrawledPages;
  view: View;
  onViewChange: (view: View) => void;
}) {
  const [search, setSearch] = useState('');
  const searchId = useId();
  const failed = list.pages.filter(pageFailed).length;
  const pages = searchPages(list, search);
  const groups = groupByDirective(list, search);
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground" data-testid="crawled-pages-summary">
        {countOf(list.pagesTotal, 'URL')} tried
        {failed > 0 ? (
          <>
            {' · '}
            <span className="font-medium text-red-700">{formatCount(failed)} failed</span>
          </>
        ) : null}
        {' · '}
        {countOf(list.resourcesTotal, 'resource')}
      </p>
      <div className="relative">
        <Search
          className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400"
          aria-hidden="true"
        />
        <label htmlFor={searchId} className="sr-only">
          Search pages and resources
        </label>
        <Input
          id={searchId}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="Search URLs, statuses, resources…"
          className="pl-9"
          autoComplete="off"
          spellCheck={false}
        />
      </div>
      <Tabs value={view} onValueChange={(v) => onViewChange(v as View)}>
        <TabsList label="Crawled pages views" className="self-start">
          <TabsTrigger value="pages">Pages {formatCount(pages.length)}</TabsTrigger>
          <TabsTrigger value="resources">
            Resources {formatCount(groups.reduce((n, g) => n + g.resources.length, 0))}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="pages">
          {pages.length === 0 ? (
            <p className="text-sm text-muted-foreground">No page matches “{search.trim()}”.</p>
          ) : (
            <ul
              className="flex max-h-[36rem] flex-col divide-y divide-border overflow-y-auto rounded-lg border border-border"
              aria-label="Pages"
            >
              {pages.map((page) => (
                <PageRow key={page.url} page={page} list={list} search={search} />
              ))}
            </ul>
          )}
          {list.pagesTotal > list.pages.length ? (
            <p className="mt-2 text-xs text-muted-foreground">
              Listing {formatCount(list.pages.length)} of {formatCount(list.pagesTotal)} URLs.
            </p>
          ) : null}
        </TabsContent>
        <TabsContent value="resources">
          {groups.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {search.trim() ? `No resource matches “${search.trim()}”.` : 'The pages loaded no resource.'}
            </p>
          ) : (
            <div className="max-h-[36rem] overflow-y-auto rounded-lg border border-border p-3 sm:p-4">
              <DirectiveGroups groups={groups} showPages />
            </div>
          )}
          {list.resourcesTotal > list.resources.length ? (
            <p className="mt-2 text-xs text-muted-foreground">
              Listing the {formatCount(list.resources.length)} most-loaded of{' '}
              {formatCount(list.resourcesTotal)} resources.
            </p>
          ) : null}
        </TabsContent>
      </Tabs>
    </div>
  );
}

/** One URL: its status badge and address; opened, what it loaded by directive (or why it failed). */
function PageRow({ page, list, search }: { page: CrawledPage; list: CrawledPages; search: string }) {
  const [open, setOpen] = useState(false);
  const status = pageStatus(page);
  const failed = pageFailed(page);
  const detailId = useId();
  return (
    <li data-testid="crawled-page" data-status={page.status} className={failed ? 'bg-red-50/50' : undefined}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={detailId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full min-w-0 items-start gap-2 px-3 py-2.5 text-left text-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-ring"
      >
        <ChevronRight
          className={`mt-0.5 size-4 shrink-0 text-slate-400 transition-transform ${open ? 'rotate-90' : ''}`}
          aria-hidden="true"
        />
        <Badge variant={BADGE[status.tone]} className="shrink-0" data-testid="crawled-page-status">
          {status.label}
        </Badge>
        <span className="min-w-0 flex-1 font-mono text-xs leading-5 [overflow-wrap:anywhere] text-foreground">
          <BreakableUrl url={page.url} />
        </span>
        <span className="hidden shrink-0 text-xs text-muted-foreground tabular-nums sm:inline">
          {failed ? 'not in the policy' : countOf(page.resourceCount, 'resource')}
        </span>
      </button>
      {open ? (
        <div
          id={detailId}
          className="flex flex-col gap-3 border-t border-border/60 px-3 py-3 text-sm sm:pl-9"
        >
          {failed && page.status >= 400 ? (
            <p className="text-red-800">
              It answered HTTP {page.status}: nothing it loads is in the policy. Check the URL, or remove it
              from the list.
            </p>
          ) : page.failure ? (
            <p className="text-red-800">Not captured: {page.failure}</p>
          ) : null}
          {page.finalUrl ? (
            <p className="text-muted-foreground">
              Redirected to{' '}
              <span className="font-mono text-xs [overflow-wrap:anywhere]">
                <BreakableUrl url={page.finalUrl} />
              </span>
            </p>
          ) : null}
          {page.incomplete ? <p className="text-amber-800">Capture incomplete: {page.incomplete}</p> : null}
          {failed ? null : page.loaded.length === 0 ? (
            <p className="text-muted-foreground">It loaded nothing beyond its own document.</p>
          ) : (
            <DirectiveGroups groups={groupByDirective(list, search, page.loaded)} />
          )}
          {page.resourceCount > page.loaded.length && !failed ? (
            <p className="text-xs text-muted-foreground">
              Listing {formatCount(page.loaded.length)} of its {formatCount(page.resourceCount)} resources.
            </p>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function DirectiveGroups({ groups, showPages = false }: { groups: DirectiveGroup[]; showPages?: boolean }) {
  return (
    <div className="flex flex-col gap-4" data-testid="directive-groups">
      {groups.map((g) => (
        <section key={g.directive} aria-label={g.directive} className="flex min-w-0 flex-col gap-1.5">
          <h3 className="flex items-center gap-2 font-mono text-xs font-semibold text-foreground">
            {g.directive}
            <span className="rounded-full bg-slate-100 px-2 py-0.5 font-sans text-xs font-medium text-slate-600 tabular-nums">
              {formatCount(g.resources.length)}
            </span>
          </h3>
          <ul className="flex flex-col gap-1">
            {g.resources.map((r) => (
              <li
                key={r.value}
                className="flex min-w-0 flex-col gap-0.5 rounded-md bg-slate-50 px-2.5 py-1.5"
              >
                <span className="font-mono text-xs [overflow-wrap:anywhere] text-foreground">
                  <BreakableUrl url={r.value} />
                </span>
                {r.sample || showPages ? (
                  <span className="text-xs break-words text-muted-foreground">
                    {r.sample ? <span className="font-mono">{r.sample}</span> : null}
                    {r.sample && showPages ? ' · ' : null}
                    {showPages ? `on ${countOf(r.pages, 'page')}` : null}
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
