// Error strings of an analysis (pages that failed, or why the crawl stopped), as a compact list.
import { CircleAlert, TriangleAlert } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/class-names';
import { formatCount } from '@/lib/format';

export function AnalysisErrorList({
  title,
  errors,
  tone = 'warning',
  className,
}: {
  title?: string;
  errors: string[];
  tone?: 'warning' | 'error';
  className?: string;
}) {
  const Icon = tone === 'error' ? CircleAlert : TriangleAlert;
  return (
    <section className={cn('flex flex-col gap-2', className)} aria-label={title ?? 'Errors'}>
      {title ? (
        <h3 className="flex items-center gap-2 text-sm font-medium text-foreground">
          {title}
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 tabular-nums">
            {formatCount(errors.length)}
          </span>
        </h3>
      ) : null}
      <ul
        className={cn(
          'flex max-h-72 flex-col divide-y overflow-y-auto rounded-lg border text-sm',
          tone === 'error'
            ? 'divide-red-100 border-red-200 bg-red-50/60'
            : 'divide-amber-100 border-amber-200 bg-amber-50/50',
        )}
        data-testid="analysis-errors"
      >
        {errors.map((error, index) => (
          // Errors are plain strings and may repeat: the position keeps keys unique.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          <li key={index} className="flex gap-2.5 px-3 py-2">
            <Icon
              className={cn('mt-0.5 size-4 shrink-0', tone === 'error' ? 'text-red-600' : 'text-amber-600')}
              aria-hidden="true"
            />
            <span className={cn('min-w-0 break-words', tone === 'error' ? 'text-red-900' : 'text-amber-950')}>
              {error}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** 'Analysis Errors': the pages of a completed analysis that could not be crawled. */
export function AnalysisErrorsCard({ errors }: { errors: string[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <TriangleAlert className="size-4 text-amber-500" aria-hidden="true" />
          Analysis Errors
        </CardTitle>
        <CardDescription>
          {errors.length === 0
            ? 'Every page was crawled without an error.'
            : 'These pages could not be analyzed; the policy covers the rest of the site.'}
        </CardDescription>
      </CardHeader>
      {errors.length > 0 ? (
        <CardContent>
          <AnalysisErrorList errors={errors} tone="warning" />
        </CardContent>
      ) : null}
    </Card>
  );
}
