// Reading the 'Crawled pages' list: a page's status in words, the search over pages (their URL, their failure
// and what they loaded) and over resources, and resources grouped by directive.
import type { CrawledPage, CrawledPages, CrawledResource } from '@csp/shared/schemas/crawled-pages';
import { pageFailed } from '@csp/shared/schemas/crawled-pages';
import { byCodeUnits } from '@csp/shared/text/order';

export type PageStatusTone = 'success' | 'warning' | 'error';

/** The badge of a page: its HTTP status, or 'Failed' when it gave no page (no answer, another site). */
export function pageStatus(page: CrawledPage): { label: string; tone: PageStatusTone } {
  if (page.status >= 400) return { label: `HTTP ${page.status}`, tone: 'error' };
  if (pageFailed(page)) return { label: 'Failed', tone: 'error' };
  if (page.incomplete) return { label: `${page.status} · incomplete`, tone: 'warning' };
  return { label: String(page.status), tone: 'success' };
}

const matches = (text: string | undefined, needle: string) => text?.toLowerCase().includes(needle) ?? false;

function resourceMatches(r: CrawledResource | undefined, needle: string): boolean {
  return (
    r !== undefined && (matches(r.value, needle) || matches(r.directive, needle) || matches(r.sample, needle))
  );
}

/** Pages whose URL, failure or any loaded resource contains the query (case-insensitive); all when empty. */
export function searchPages(list: CrawledPages, query: string): CrawledPage[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return list.pages;
  return list.pages.filter(
    (p) =>
      matches(p.url, needle) ||
      matches(p.finalUrl, needle) ||
      matches(p.failure, needle) ||
      matches(pageStatus(p).label, needle) ||
      p.loaded.some((i) => resourceMatches(list.resources[i], needle)),
  );
}

export interface DirectiveGroup {
  directive: string;
  resources: CrawledResource[];
}

/** Resources (those of `indices`, or all) grouped by directive in name order, filtered by the query. */
export function groupByDirective(
  list: CrawledPages,
  query = '',
  indices?: readonly number[],
): DirectiveGroup[] {
  const needle = query.trim().toLowerCase();
  const chosen = indices ? indices.map((i) => list.resources[i]) : list.resources;
  const groups = new Map<string, CrawledResource[]>();
  for (const r of chosen) {
    if (!r || (needle && !resourceMatches(r, needle))) continue;
    const group = groups.get(r.directive);
    if (group) group.push(r);
    else groups.set(r.directive, [r]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => byCodeUnits(a, b))
    .map(([directive, resources]) => ({ directive, resources }));
}
