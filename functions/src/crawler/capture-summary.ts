// What the analysis tells about its own crawl: pages whose capture did not finish, what only appeared after
// acting on pages, what acting tried to send or open, and inline code that changes on every load. Pure,
// over the crawl state.
import type { Observation } from '@csp/shared/csp/artifact';
import type { UnstableInline } from '@csp/shared/csp/stability';
import type { CaptureSummary } from '@csp/shared/schemas/analysis';
import type { CrawlState } from './state';

const MAX_LISTED = 20;

function describeValue(o: Observation): string {
  if (o.type === 'url') return o.url;
  if (o.type === 'inline') return `inline: ${o.sample ?? o.hash}`;
  return o.type;
}

export function summarizeCapture(state: CrawlState, unstableInline: UnstableInline[]): CaptureSummary {
  const incomplete = state.pages
    .filter((p) => p.incomplete)
    .map((p) => ({ url: p.finalUrl, reason: p.incomplete ?? '' }));
  const interaction = new Map<string, { directive: string; value: string; page: string }>();
  for (const page of state.pages) {
    for (const o of page.observations) {
      if (!o.interaction) continue;
      const directive = o.type === 'url' || o.type === 'inline' ? o.directive : 'script-src';
      const value = describeValue(o);
      const key = `${directive} ${value}`;
      if (!interaction.has(key)) interaction.set(key, { directive, value, page: page.finalUrl });
    }
  }
  return {
    pagesCaptured: state.pages.length,
    pagesIncomplete: incomplete.length,
    pagesFailed: state.pages.filter((p) => p.status >= 400).length,
    urlsFailed: state.failures.length,
    incomplete: incomplete.slice(0, MAX_LISTED),
    interactionObservations: interaction.size,
    interactionSamples: [...interaction.values()].slice(0, MAX_LISTED),
    writesAnswered: state.stats.writesAnswered,
    navigationsBlocked: state.stats.navigationsBlocked,
    pagesRerendered: state.rerenders.length,
    unstableInline: unstableInline.slice(0, MAX_LISTED),
    interactionMs: Math.round(state.stats.interactionMs),
    rerenderMs: Math.round(state.stats.rerenderMs),
  };
}

/** The error a failed crawl leads with: the first page-level error (not a missing sitemap). */
export function firstCrawlError(errors: readonly string[]): string | undefined {
  return errors.find((e) => !e.startsWith('Sitemap ')) ?? errors[0];
}
