// A card of labelled figures: a title with an icon over a definition list of [label, value, tooltip] rows.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { InfoTip } from '@/components/ui/stat-tile';

/** A figure, with a tooltip saying what it counts. */
export type StatRow = [label: string, value: ReactNode, tooltip?: ReactNode];

export function StatListCard({
  icon: Icon,
  title,
  rows,
  testId,
}: {
  icon: LucideIcon;
  title: ReactNode;
  rows: StatRow[];
  testId: string;
}) {
  return (
    <Card>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-center gap-2">
          <Icon className="size-4 text-primary" aria-hidden="true" />
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="flex flex-col divide-y divide-border" data-testid={testId}>
          {rows.map(([label, value, tooltip]) => (
            <div key={label} className="flex items-center justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
              <dt className="flex items-center gap-1.5 text-sm text-muted-foreground">
                {label}
                {tooltip ? <InfoTip label={label} content={tooltip} /> : null}
              </dt>
              <dd className="text-sm font-semibold tabular-nums text-foreground">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
