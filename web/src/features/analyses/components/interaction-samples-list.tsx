// The first resources that only appeared after the crawler acted on a page (opened a menu, hovered,
// selected…): directive, value and page.
import type { CaptureSummary } from '@csp/shared/schemas/analysis';
import { formatCount, pathOf } from '@/lib/format';

/** How many samples are listed; the rest are counted. */
export const SHOWN_INTERACTION_SAMPLES = 5;

export function InteractionSamplesList({ capture }: { capture: CaptureSummary }) {
  const shown = capture.interactionSamples.slice(0, SHOWN_INTERACTION_SAMPLES);
  const more = capture.interactionObservations - shown.length;
  return (
    <ul
      className="flex flex-col gap-1"
      aria-label="Resources seen after interaction"
      data-testid="interaction-samples"
    >
      {shown.map((item) => (
        <li
          key={`${item.directive} ${item.value}`}
          className="flex min-w-0 flex-col rounded-md bg-slate-50 px-2.5 py-1.5 ring-1 ring-slate-200"
        >
          <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
            <span className="font-mono text-[11px] font-semibold text-slate-700">{item.directive}</span>
            <code className="min-w-0 font-mono text-[11px] [overflow-wrap:anywhere] text-foreground">
              {item.value}
            </code>
          </span>
          <span className="truncate font-mono text-[11px] text-muted-foreground" title={item.page}>
            on {pathOf(item.page)}
          </span>
        </li>
      ))}
      {more > 0 ? <li className="px-1 text-xs text-muted-foreground">and {formatCount(more)} more</li> : null}
    </ul>
  );
}
