// Pages whose capture did not finish (even after a retry in a fresh tab): the page and why.
import type { CaptureSummary } from '@csp/shared/schemas/analysis';
import { formatCount } from '@/lib/format';

export function IncompletePagesList({ capture }: { capture: CaptureSummary }) {
  const more = capture.pagesIncomplete - capture.incomplete.length;
  return (
    <ul
      className="flex max-h-72 flex-col divide-y divide-red-100 overflow-y-auto rounded-lg border border-red-200 bg-white text-sm"
      aria-label="Incomplete pages"
      data-testid="incomplete-pages"
    >
      {capture.incomplete.map((page) => (
        <li key={page.url} className="flex flex-col gap-0.5 px-3 py-2" data-testid="incomplete-page">
          <span className="font-mono text-xs [overflow-wrap:anywhere] text-red-950">{page.url}</span>
          <span className="text-xs text-red-800/80">{page.reason}</span>
        </li>
      ))}
      {more > 0 ? (
        <li className="px-3 py-2 text-xs text-red-800/80">
          and {formatCount(more)} more {more === 1 ? 'page' : 'pages'}
        </li>
      ) : null}
    </ul>
  );
}
