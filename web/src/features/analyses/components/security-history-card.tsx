// "Watch security improve over time" (spec section 1): the grade of each completed analysis of the domain
// (its policy's audit score, as a line with the letter at each point) and the violations its verification
// still saw (bars), oldest to newest. An SVG of our own: no chart library.
import { TrendingUp } from 'lucide-react';
import { GRADE_EXPLANATION } from '@/components/policy/policy-verdict';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Tooltip } from '@/components/ui/tooltip';
import { formatDate, formatDateTime } from '@/lib/format';
import type { HistoryPoint } from '../utils/security-score';

// The card sits in the narrow column of the domain screen (about 340 px): a viewBox of that size keeps the
// letters at their CSS size.
const W = 340;
const H = 170;
const PAD = { top: 26, right: 12, bottom: 10, left: 26 };
/** The last analyses shown: enough for a trend, few enough for letters not to collide on a phone. */
export const HISTORY_POINTS = 12;

export function SecurityHistoryCard({ points: all }: { points: HistoryPoint[] }) {
  const points = all.slice(-HISTORY_POINTS);
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (points.length === 1 ? innerW / 2 : (i * innerW) / (points.length - 1));
  const y = (score: number) => PAD.top + innerH - (score / 100) * innerH;
  const maxViolations = Math.max(1, ...points.map((p) => p.violations ?? 0));
  const barW = Math.min(18, innerW / Math.max(1, points.length) / 2);
  const first = points[0];
  const last = points.at(-1);
  const summary =
    first && last
      ? `Grade ${first.grade} on ${formatDate(first.at)} to ${last.grade} on ${formatDate(last.at)} over ${points.length} analyses`
      : '';
  return (
    <Card data-testid="security-history">
      <CardHeader
        actions={
          <Tooltip content={GRADE_EXPLANATION}>
            <button type="button" className="text-xs text-muted-foreground underline decoration-dotted">
              How grades work
            </button>
          </Tooltip>
        }
      >
        <CardTitle className="flex items-center gap-2">
          <TrendingUp className="size-4 text-primary" aria-hidden="true" />
          Security over time
        </CardTitle>
        <CardDescription>
          Grade of each analysis' policy and the violations its verification saw.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {points.length === 0 ? (
          <EmptyState
            icon={TrendingUp}
            title="No completed analysis yet"
            description="Each completed analysis adds a point: run one now and another after you change the site."
            className="py-8"
          />
        ) : (
          <figure className="flex flex-col gap-2">
            <svg viewBox={`0 0 ${W} ${H}`} className="h-auto w-full" role="img" aria-label={summary}>
              {[0, 50, 100].map((v) => (
                <g key={v}>
                  <line
                    x1={PAD.left}
                    x2={W - PAD.right}
                    y1={y(v)}
                    y2={y(v)}
                    className="stroke-slate-200"
                    strokeDasharray="3 3"
                  />
                  <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" className="fill-slate-400 text-[9px]">
                    {v}
                  </text>
                </g>
              ))}
              {points.map((p, i) =>
                p.violations ? (
                  <rect
                    key={`bar-${p.id}`}
                    x={x(i) - barW / 2}
                    width={barW}
                    y={PAD.top + innerH - (p.violations / maxViolations) * (innerH * 0.4)}
                    height={(p.violations / maxViolations) * (innerH * 0.4)}
                    rx={2}
                    className="fill-amber-300/70"
                    data-testid="history-violations"
                  >
                    <title>{`${p.violations} violations in verification`}</title>
                  </rect>
                ) : null,
              )}
              {points.length > 1 ? (
                <polyline
                  points={points.map((p, i) => `${x(i)},${y(p.score)}`).join(' ')}
                  fill="none"
                  className="stroke-indigo-500"
                  strokeWidth={2}
                />
              ) : null}
              {points.map((p, i) => (
                <g key={p.id} data-testid="history-point" data-grade={p.grade}>
                  <circle
                    cx={x(i)}
                    cy={y(p.score)}
                    r={4}
                    className="fill-white stroke-indigo-600"
                    strokeWidth={2}
                  />
                  <text
                    x={x(i)}
                    y={y(p.score) - 9}
                    textAnchor="middle"
                    className="fill-slate-700 text-[11px] font-semibold"
                  >
                    {p.grade}
                  </text>
                  <title>{`${formatDateTime(p.at)}: grade ${p.grade} (${p.score}/100), ${p.issues} issues${p.violations === null ? '' : `, ${p.violations} violations`}`}</title>
                </g>
              ))}
            </svg>
            <figcaption className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
              <span>{first ? formatDate(first.at) : ''}</span>
              <span className="flex items-center gap-3">
                <span className="flex items-center gap-1">
                  <span className="inline-block h-0.5 w-4 bg-indigo-500" aria-hidden="true" /> Grade
                </span>
                <span className="flex items-center gap-1">
                  <span className="inline-block size-2.5 rounded-sm bg-amber-300" aria-hidden="true" />{' '}
                  Violations
                </span>
              </span>
              <span>{last ? formatDate(last.at) : ''}</span>
            </figcaption>
          </figure>
        )}
      </CardContent>
    </Card>
  );
}
