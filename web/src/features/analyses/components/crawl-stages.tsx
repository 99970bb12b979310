// The five crawl stages (Discovering URLs → Complete): the stage the crawler reports, or for older analyses
// the one the percent is in (25, 50, 75 and 100). Nothing is active while the analysis is queued (-1).
import { Check, LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/class-names';
import { STAGE_LABELS } from '../utils/progress';

export function CrawlStages({
  current,
  detail,
  className,
}: {
  /** Index in STAGE_LABELS; -1 when no stage has started. */
  current: number;
  /** A line under the active stage ("12 of 37 pages"). */
  detail?: string | null;
  className?: string;
}) {
  return (
    <ol
      aria-label="Analysis stages"
      className={cn('flex flex-col gap-2.5 sm:grid sm:grid-cols-5 sm:gap-2', className)}
      data-testid="crawl-stages"
    >
      {STAGE_LABELS.map((label, index) => {
        // The last stage (Complete) is done when reached; every other stage is done once passed.
        const done = index < current || (index === current && index === STAGE_LABELS.length - 1);
        const active = index === current && !done;
        return (
          <li
            key={label}
            aria-current={active ? 'step' : undefined}
            data-stage={label}
            data-state={done ? 'done' : active ? 'active' : 'upcoming'}
            className="relative flex items-center gap-3 sm:flex-col sm:gap-2 sm:text-center"
          >
            {index > 0 ? (
              <span
                aria-hidden="true"
                className={cn(
                  'absolute top-[15px] right-1/2 hidden h-0.5 w-full sm:block',
                  index <= current ? 'bg-primary/60' : 'bg-slate-200',
                )}
              />
            ) : null}
            <span
              className={cn(
                'relative z-10 flex size-8 shrink-0 items-center justify-center rounded-full text-xs font-semibold ring-4 ring-card',
                done && 'bg-primary text-primary-foreground',
                active && 'bg-primary-soft text-primary ring-primary/10',
                !done && !active && 'bg-slate-100 text-slate-400',
              )}
            >
              {done ? (
                <Check className="size-4" aria-hidden="true" />
              ) : active ? (
                <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
              ) : (
                index + 1
              )}
            </span>
            <span
              className={cn(
                'text-sm sm:text-xs sm:leading-snug',
                done && 'font-medium text-foreground',
                active && 'font-semibold text-primary',
                !done && !active && 'text-muted-foreground',
              )}
            >
              {label}
              <span className="sr-only">{done ? ' (done)' : active ? ' (in progress)' : ''}</span>
              {active && detail ? (
                <span
                  className="ml-2 text-xs font-medium text-muted-foreground tabular-nums sm:mt-0.5 sm:ml-0 sm:block"
                  data-testid="stage-detail"
                >
                  {detail}
                </span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
