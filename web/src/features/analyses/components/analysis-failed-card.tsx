// 'Analysis Failed': what went wrong, with the analysis' error list and an action to move on.
import { CircleX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { AnalysisErrorList } from './analysis-errors';

export function AnalysisFailedCard({
  description,
  errors,
  errorsTitle = 'Error Details',
  action,
}: {
  description: ReactNode;
  errors: string[];
  errorsTitle?: string;
  action?: ReactNode;
}) {
  return (
    <Card className="border-red-200" data-testid="analysis-failed">
      <CardContent className="flex flex-col gap-5 pt-5 sm:pt-6">
        <div className="flex items-start gap-4">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-red-50 text-destructive ring-1 ring-red-100">
            <CircleX className="size-5" aria-hidden="true" />
          </span>
          <div className="flex min-w-0 flex-col gap-1">
            <h2 className="text-lg font-semibold tracking-tight text-foreground">Analysis Failed</h2>
            <p className="text-sm break-words text-muted-foreground">{description}</p>
          </div>
        </div>
        {errors.length > 0 ? (
          <AnalysisErrorList title={errorsTitle} errors={errors} tone="error" />
        ) : (
          <p className="text-sm text-muted-foreground">No error details were recorded for this analysis.</p>
        )}
        {action ? <div className="flex flex-wrap gap-2">{action}</div> : null}
      </CardContent>
    </Card>
  );
}
