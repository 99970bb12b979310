// A headline figure: label, icon, value, a hint below it, and a tooltip (700/300 ms) saying what it counts.
import { Info, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/class-names';
import { Card } from './card';
import { Tooltip } from './tooltip';

const TONES = {
  indigo: 'bg-indigo-50 text-indigo-600 ring-indigo-100',
  blue: 'bg-blue-50 text-blue-600 ring-blue-100',
  emerald: 'bg-emerald-50 text-emerald-600 ring-emerald-100',
  amber: 'bg-amber-50 text-amber-600 ring-amber-100',
  violet: 'bg-violet-50 text-violet-600 ring-violet-100',
  slate: 'bg-slate-100 text-slate-500 ring-slate-200',
} as const;

/** An (i) next to a label that shows what the figure means, on hover and on keyboard focus. */
export function InfoTip({ label, content }: { label: string; content: ReactNode }) {
  return (
    <Tooltip content={content}>
      <button
        type="button"
        aria-label={`About ${label}`}
        className="rounded-full text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-ring"
        data-testid="info-tip"
      >
        <Info className="size-3.5" aria-hidden="true" />
      </button>
    </Tooltip>
  );
}

export function StatTile({
  icon: Icon,
  label,
  value,
  hint,
  tone,
  tooltip,
  pulse = false,
  className,
  testId = 'stat-tile',
  href,
  linkLabel,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone: keyof typeof TONES;
  tooltip: ReactNode;
  pulse?: boolean;
  className?: string;
  testId?: string;
  /** Makes the whole tile a link (to where its figure is listed), named by `linkLabel`. */
  href?: string;
  linkLabel?: string;
}) {
  return (
    <Card
      className={cn(
        '@container relative flex flex-col gap-3 p-4 sm:p-5',
        href && 'transition-colors hover:border-ring',
        className,
      )}
      data-testid={testId}
    >
      <div className="flex items-start justify-between gap-2">
        <span className="flex min-w-0 items-center gap-1.5 text-sm font-medium text-muted-foreground">
          {label}
          {/* Above the tile's link, which covers the whole tile. */}
          <span className="relative z-10 flex">
            <InfoTip label={label} content={tooltip} />
          </span>
        </span>
        {/* Decoration: a tile too narrow for its label and the icon (two to a row on a phone) drops it. */}
        <span
          className={cn(
            'relative hidden size-8 shrink-0 items-center justify-center rounded-lg ring-1 @min-[10.5rem]:flex',
            TONES[tone],
          )}
          aria-hidden="true"
        >
          <Icon className="size-4" />
          {pulse ? (
            <span className="absolute -top-0.5 -right-0.5 size-2 animate-ping rounded-full bg-amber-500" />
          ) : null}
        </span>
      </div>
      <div className="flex flex-col gap-0.5">
        <div className="text-2xl font-semibold tracking-tight tabular-nums text-foreground sm:text-3xl">
          {href ? (
            // The link's ::after covers the tile, so a click anywhere on it opens the list.
            <a
              href={href}
              aria-label={linkLabel}
              className="rounded-sm after:absolute after:inset-0 after:rounded-xl after:content-[''] hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            >
              {value}
            </a>
          ) : (
            value
          )}
        </div>
        {hint ? <span className="text-xs text-muted-foreground">{hint}</span> : null}
      </div>
    </Card>
  );
}
