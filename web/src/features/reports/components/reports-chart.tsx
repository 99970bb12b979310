// Reports per hour over the window, as bars (no chart library: one div a bar). Every bar names its hour
// and count for the mouse (title) and the chart as a whole for screen readers.
import { countOf, formatCount, formatDateTime } from '@/lib/format';

export function ReportsChart({ hourly }: { hourly: { hour: string; count: number }[] }) {
  const max = Math.max(1, ...hourly.map((h) => h.count));
  const total = hourly.reduce((n, h) => n + h.count, 0);
  const first = hourly[0]?.hour;
  const last = hourly.at(-1)?.hour;
  return (
    <figure className="flex flex-col gap-1.5" data-testid="reports-chart">
      <div
        className="flex h-16 items-end gap-px rounded-md bg-slate-50 px-1 pt-1 ring-1 ring-slate-100"
        role="img"
        aria-label={`${formatCount(total)} reports over ${hourly.length} hours`}
      >
        {hourly.map((h) => (
          <div
            key={h.hour}
            title={`${formatDateTime(h.hour)}: ${countOf(h.count, 'report')}`}
            className={h.count > 0 ? 'flex-1 rounded-t-sm bg-blue-500/80' : 'flex-1 bg-transparent'}
            style={{ height: h.count > 0 ? `${Math.max(6, (h.count / max) * 100)}%` : 0 }}
          />
        ))}
      </div>
      <figcaption className="flex justify-between text-xs text-muted-foreground">
        <span>{first ? formatDateTime(first) : ''}</span>
        <span>Reports per hour (most: {formatCount(max === 1 && total === 0 ? 0 : max)})</span>
        <span>{last ? 'now' : ''}</span>
      </figcaption>
    </figure>
  );
}
