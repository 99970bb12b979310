// The domain screen's Changes panel: a timeline of compared runs, newest first, each with its date, a link
// to its analysis, its counts as badges and, expanded, what changed (scripts, policy, headers) and the drift
// from the saved policy. Read-only for everybody: it records what the crawls saw, there is nothing to decide
// here (scripts are reviewed in the Scripts panel). It sits under the section's h2 ("Changes").
import { History } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { useChanges } from '../api/get-changes';
import { RunItem } from './run-item';

export function ChangesPanel({ domainId }: { domainId: string }) {
  const changes = useChanges(domainId);
  const runs = changes.data?.pages.flatMap((p) => p.runs) ?? [];
  return (
    <Card data-testid="changes-panel">
      <CardContent className="flex flex-col gap-4 pt-5 sm:pt-6">
        <p className="text-sm text-muted-foreground">
          What changed from each analysis of this domain to the next: scripts, the policy, security headers,
          and whether the site serves its saved policy.
        </p>
        {changes.isPending ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the changes...">
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-20 w-full" />
          </LoadingBlock>
        ) : changes.isError ? (
          <Alert tone="error" role="alert">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <span>Failed to fetch the changes</span>
              <Button variant="outline" size="sm" onClick={() => void changes.refetch()}>
                Try again
              </Button>
            </div>
          </Alert>
        ) : runs.length === 0 ? (
          <EmptyState
            icon={History}
            title="No changes yet: the first comparison appears after a domain's second analysis"
          />
        ) : (
          <>
            <ol className="flex flex-col gap-3">
              {runs.map((run) => (
                <RunItem key={run.analysisId} run={run} />
              ))}
            </ol>
            {changes.hasNextPage ? (
              <Button
                variant="outline"
                size="sm"
                className="self-center"
                loading={changes.isFetchingNextPage}
                onClick={() => void changes.fetchNextPage()}
              >
                Load more
              </Button>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
