// The 'Crawled pages' list from a crawl's pages and the URLs it could not capture: every URL with its status,
// what each page loaded, and the resources grouped by directive. Pure; cut to CRAWLED_PAGES_LIMITS, dropping
// per-page detail first and pages last, so the list always fits its item.
import type { Observation, ObservedDirective, PageArtifact } from '../csp/artifact';
import {
  CRAWLED_PAGES_LIMITS,
  type CrawledPage,
  type CrawledPages,
  type CrawledResource,
  type CrawlFailure,
} from '../schemas/crawled-pages';

const L = CRAWLED_PAGES_LIMITS;

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The directive and the value a person reads for one observation (inline code by its hash source). */
function resourceOf(o: Observation): { directive: ObservedDirective; value: string; sample?: string } {
  switch (o.type) {
    case 'url':
      return { directive: o.directive, value: cut(o.url, L.valueChars) };
    case 'inline':
      return {
        directive: o.directive,
        value: `'${o.hash}'`,
        ...(o.sample ? { sample: cut(o.sample, L.valueChars) } : {}),
      };
    case 'eval':
      return { directive: 'script-src', value: 'eval()' };
    case 'wasm-eval':
      return { directive: 'script-src', value: 'WebAssembly compilation' };
  }
}

export function summarizeCrawledPages(
  pages: readonly PageArtifact[],
  failures: readonly CrawlFailure[],
): CrawledPages {
  const index = new Map<string, CrawledResource & { order: number }>();
  const perPage = pages.map((page) => {
    const keys = new Set<string>();
    for (const o of page.observations) {
      const r = resourceOf(o);
      const key = `${r.directive} ${r.value}`;
      if (keys.has(key)) continue;
      keys.add(key);
      const known = index.get(key);
      if (known) known.pages += 1;
      else index.set(key, { ...r, pages: 1, order: index.size });
    }
    return { page, keys: [...keys] };
  });

  // Most-loaded first, then in the order they were seen; grouped by directive in the web app.
  const ranked = [...index.entries()].sort(([, a], [, b]) => b.pages - a.pages || a.order - b.order);
  const kept = ranked.slice(0, L.resources);
  const position = new Map(kept.map(([key], i) => [key, i]));
  const resources: CrawledResource[] = kept.map(([, { order: _order, ...r }]) => r);

  const failed: CrawledPage[] = failures.map((f) => ({
    url: cut(f.url, L.urlChars),
    status: Math.max(0, Math.min(999, f.status ?? 0)),
    failure: cut(f.reason, L.reasonChars),
    resourceCount: 0,
    loaded: [],
  }));
  const captured: CrawledPage[] = perPage.map(({ page, keys }) => ({
    url: cut(page.url, L.urlChars),
    ...(page.finalUrl !== page.url ? { finalUrl: cut(page.finalUrl, L.urlChars) } : {}),
    status: Math.max(0, Math.min(999, page.status)),
    ...(page.incomplete ? { incomplete: cut(page.incomplete, L.reasonChars) } : {}),
    resourceCount: keys.length,
    loaded: keys.flatMap((k) => (position.has(k) ? [position.get(k) as number] : [])),
  }));
  // Pages that answered an error lead, with the URLs that gave no answer: they are what a person looks for.
  const all = [
    ...failed,
    ...captured.filter((p) => p.status >= 400),
    ...captured.filter((p) => p.status < 400),
  ];

  let resourceCap: number = resources.length;
  let perPageCap: number = L.loadedPerPage;
  let pageCap: number = L.pages;
  const build = (): CrawledPages => ({
    pages: all.slice(0, pageCap).map((p) => ({
      ...p,
      loaded: p.loaded.filter((i) => i < resourceCap).slice(0, perPageCap),
    })),
    pagesTotal: all.length,
    resources: resources.slice(0, resourceCap),
    resourcesTotal: index.size,
  });
  let list = build();
  // Too large: the least-loaded resources go first (down to 100), then the per-page lists, then the rest.
  while (JSON.stringify(list).length > L.jsonChars && pageCap > 0) {
    if (resourceCap > 100) resourceCap = Math.floor(resourceCap / 2);
    else if (perPageCap > 0) perPageCap = Math.floor(perPageCap / 2);
    else if (resourceCap > 0) resourceCap = Math.floor(resourceCap / 2);
    else pageCap = Math.floor(pageCap / 2);
    list = build();
  }
  return list;
}
