// One compared run of the timeline: when it completed, a link to its analysis, what changed counted in
// badges (only the kinds that changed, so a quiet run reads "No changes"), and its details on demand.
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { countOf, formatDateTime } from '@/lib/format';
import type { ChangedRun } from '../api/get-changes';
import { DRIFT_LABELS } from '../utils/labels';
import { RunDetails } from './run-details';

function countBadges(counts: ChangedRun['counts']): { text: string; variant: BadgeVariant }[] {
  const badges: { n: number; text: string; variant: BadgeVariant }[] = [
    { n: counts.scriptsAdded, text: `${countOf(counts.scriptsAdded, 'script')} added`, variant: 'success' },
    {
      n: counts.scriptsChanged,
      text: `${countOf(counts.scriptsChanged, 'script')} changed`,
      variant: 'purple',
    },
    {
      n: counts.scriptsRemoved,
      text: `${countOf(counts.scriptsRemoved, 'script')} removed`,
      variant: 'warning',
    },
    { n: counts.originChanges, text: countOf(counts.originChanges, 'origin change'), variant: 'info' },
    { n: counts.policyChanges, text: countOf(counts.policyChanges, 'policy change'), variant: 'info' },
    { n: counts.headerChanges, text: countOf(counts.headerChanges, 'header change'), variant: 'info' },
  ];
  return badges.filter((b) => b.n > 0);
}

export function RunItem({ run }: { run: ChangedRun }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const badges = countBadges(run.counts);
  const drift = run.counts.drift;
  return (
    <li
      className="flex min-w-0 flex-col gap-3 rounded-lg border border-border bg-white p-3"
      data-testid="change-run"
    >
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="flex min-w-0 flex-col gap-1.5">
          <h3 className="text-sm font-semibold">{formatDateTime(run.completedAt)}</h3>
          <div className="flex flex-wrap items-center gap-1.5" data-testid="change-run-counts">
            {badges.map((b) => (
              <Badge key={b.text} variant={b.variant}>
                {b.text}
              </Badge>
            ))}
            {badges.length === 0 ? <Badge variant="secondary">No changes</Badge> : null}
            {drift ? <Badge variant={DRIFT_LABELS[drift].variant}>{DRIFT_LABELS[drift].label}</Badge> : null}
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          <Link
            to={`/analysis/${encodeURIComponent(run.analysisId)}`}
            className="text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            View analysis
          </Link>
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? <ChevronDown aria-hidden="true" /> : <ChevronRight aria-hidden="true" />}
            Details
          </Button>
        </div>
      </div>
      <div id={detailsId} hidden={!open}>
        {open ? <RunDetails run={run} /> : null}
      </div>
    </li>
  );
}
