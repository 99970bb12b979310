// What "Send test" got back: each channel, delivered or failed with its error.
import type { Webhook } from '@csp/shared/schemas/alert-settings';
import { CircleCheck, CircleX } from 'lucide-react';
import { channelName } from './channel-name';

export interface TestResult {
  channel: 'email' | 'webhook';
  target: string;
  delivered: boolean;
  status: number | null;
  error: string | null;
}

export function TestAlertResults({
  results,
  webhooks,
  people,
}: {
  results: readonly TestResult[];
  webhooks: readonly Webhook[];
  people?: ReadonlyMap<string, string> | undefined;
}) {
  return (
    <section className="flex flex-col gap-2" aria-labelledby="test-alert-results-title">
      <h4 id="test-alert-results-title" className="text-xs font-medium text-muted-foreground">
        Test alert just sent
      </h4>
      <ul className="flex flex-col gap-2 text-sm" data-testid="test-results">
        {results.map((r) => (
          <li
            key={`${r.channel}:${r.target}`}
            className="flex items-start gap-2 rounded-lg border border-border p-3"
            data-testid="test-result"
          >
            {r.delivered ? (
              <CircleCheck className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            ) : (
              <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden="true" />
            )}
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="break-all font-medium">{channelName(r, webhooks, people)}</span>
              {r.delivered ? (
                <span className="text-emerald-700">
                  Delivered{r.status !== null ? ` (HTTP ${r.status})` : ''}
                </span>
              ) : (
                <span className="break-words text-destructive">Failed: {r.error ?? 'no answer'}</span>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
