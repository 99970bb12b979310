// A card of labelled figures: a title with an icon over a definition list of [label, value] rows.
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

export type StatRow = [label: string, value: ReactNode];

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
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-center justify-between gap-4 py-2.5 first:pt-0 last:pb-0">
              <dt className="text-sm text-muted-foreground">{label}</dt>
              <dd className="text-sm font-semibold tabular-nums text-foreground">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
