// Domain screen, Monitoring: the schedule that re-analyses the domain (off, daily, weekly; a time of day in
// a time zone; the crawl settings its runs use), its next run, and what each due time did. The owner edits
// it; a team member reads it.
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { type ScheduleRun, type ScheduleView, scheduleInputSchema } from '@csp/shared/schemas/schedule';
import type { Schedule } from '@csp/shared/watch/schedule';
import { CalendarClock, History } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Field } from '@/components/ui/field';
import { FormError } from '@/components/ui/form-error';
import { Input, Select } from '@/components/ui/input';
import { LoadingBlock } from '@/components/ui/loading-block';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/hooks/use-toast';
import { type FieldErrors, focusFirstInvalid, serverFieldErrors, validateForm } from '@/lib/validation';
import { useSchedule } from '../api/get-schedule';
import { useUpdateSchedule } from '../api/update-schedule';
import { browserTimeZone, formatRunTime, timeZoneChoices } from '../utils/run-time';
import { TimeOfDaySelect } from './time-of-day-select';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const FREQUENCIES = [
  { value: 'off', label: 'Off' },
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
] as const;

export function ScheduleCard({
  domainId,
  domainUrl,
  readOnly,
  inactive,
}: {
  domainId: string;
  /** Crawled by every run: the crawl settings are checked with it, as the API checks them. */
  domainUrl: string;
  readOnly: boolean;
  /** Scheduled runs are skipped while the domain is inactive. */
  inactive: boolean;
}) {
  const schedule = useSchedule(domainId);
  return (
    <Card data-testid="schedule-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CalendarClock className="size-4 text-primary" aria-hidden="true" />
          Scheduled Analyses
        </CardTitle>
        <CardDescription>
          Analyse the site again on a schedule, to see what changed since the last crawl.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        {schedule.isLoading ? (
          <LoadingBlock className="flex flex-col gap-3" label="Loading the schedule...">
            <Skeleton className="h-6 w-56" />
            <Skeleton className="h-24 w-full" />
          </LoadingBlock>
        ) : schedule.error || !schedule.data ? (
          <Alert tone="error" role="alert">
            Could not load the schedule ({schedule.error?.message ?? 'no answer'}).
          </Alert>
        ) : (
          <>
            <NextRun view={schedule.data} inactive={inactive} />
            {readOnly ? (
              <ScheduleSummary view={schedule.data} />
            ) : (
              <ScheduleForm domainId={domainId} domainUrl={domainUrl} view={schedule.data} />
            )}
            <RunHistory runs={schedule.data.history} timeZone={schedule.data.schedule.timeZone} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function NextRun({ view, inactive }: { view: ScheduleView; inactive: boolean }) {
  const { schedule, nextRunAt } = view;
  return (
    <div
      className="flex flex-col gap-1 rounded-lg border border-border bg-slate-50/60 p-4"
      data-testid="next-run"
    >
      <span className="text-sm font-medium text-foreground">
        {nextRunAt ? `Next run: ${formatRunTime(nextRunAt, schedule.timeZone)}` : 'Not scheduled'}
      </span>
      <span className="text-sm text-muted-foreground">
        {nextRunAt && inactive
          ? 'Paused: scheduled runs are skipped while the domain is inactive.'
          : nextRunAt
            ? `${describe(schedule)}. Runs start within five minutes of their time, within your daily page budget.`
            : 'Choose daily or weekly to re-analyse this domain automatically.'}
      </span>
    </div>
  );
}

const describe = (s: Schedule) =>
  s.frequency === 'off'
    ? 'Off'
    : `${s.frequency === 'daily' ? 'Every day' : `Every ${WEEKDAYS[s.weekday]}`} at ${s.time} (${s.timeZone})`;

function ScheduleSummary({ view }: { view: ScheduleView }) {
  const pages = view.crawlRequest?.maxPages;
  return (
    <p className="text-sm text-muted-foreground" data-testid="schedule-summary">
      {describe(view.schedule)}
      {pages !== undefined && view.schedule.frequency !== 'off' ? `, up to ${pages} pages` : ''}. Only the
      domain's owner can change the schedule.
    </p>
  );
}

function ScheduleForm({
  domainId,
  domainUrl,
  view,
}: {
  domainId: string;
  domainUrl: string;
  view: ScheduleView;
}) {
  const id = useId();
  const update = useUpdateSchedule(domainId);
  const [form, setForm] = useState(() => formOf(view));
  const [errors, setErrors] = useState<FieldErrors>({});
  // The browser's zone joins the choices when the user reaches the field (see browserTimeZone).
  const [ownZone, setOwnZone] = useState<string | null>(null);
  const offerOwnZone = () => setOwnZone(browserTimeZone());
  // A save (here or in another tab) replaces the view: the form follows it.
  useEffect(() => setForm(formOf(view)), [view]);
  const set = <K extends keyof typeof form>(key: K, value: (typeof form)[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const off = form.frequency === 'off';

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const target = e.currentTarget;
    const { url: _url, ...saved } = view.crawlRequest ?? {};
    // The settings saved before (user agent, URL list…) are kept; the form changes pages and delay.
    const crawlRequest = { ...saved, maxPages: form.maxPages, crawlDelay: form.crawlDelay };
    const input = {
      frequency: form.frequency,
      time: form.time,
      weekday: form.weekday,
      timeZone: form.timeZone,
      crawlRequest,
    };
    // Checked here with the API's own schemas, so the user sees the message beside the field at once.
    const checked = [
      validateForm(scheduleInputSchema, input),
      validateForm(crawlRequestSchema, { ...crawlRequest, url: domainUrl }),
    ];
    const found = Object.assign({}, ...checked.map((r) => (r.success ? {} : r.errors))) as FieldErrors;
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid(target);
      return;
    }
    update.mutate(input, {
      onSuccess: () => toast({ title: off ? 'Schedule turned off' : 'Schedule saved' }),
      onError: (err) => setErrors(serverFieldErrors(err)),
    });
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={submit} aria-label="Schedule" noValidate>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium">Frequency</span>
        <SegmentedControl
          label="Frequency"
          value={form.frequency}
          onValueChange={(v) => set('frequency', v)}
          options={FREQUENCIES}
          className="self-start"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {form.frequency === 'weekly' ? (
          <Field id={`${id}-weekday`} label="Day">
            <Select value={form.weekday} onChange={(e) => set('weekday', Number(e.target.value))}>
              {WEEKDAYS.map((day, i) => (
                <option key={day} value={i}>
                  {day}
                </option>
              ))}
            </Select>
          </Field>
        ) : null}
        <Field id={`${id}-time`} label="Time" error={errors.time}>
          <TimeOfDaySelect value={form.time} disabled={off} onChange={(time) => set('time', time)} />
        </Field>
        <Field id={`${id}-zone`} label="Time zone">
          <Select
            value={form.timeZone}
            disabled={off}
            onFocus={offerOwnZone}
            onPointerDown={offerOwnZone}
            onChange={(e) => set('timeZone', e.target.value)}
          >
            {timeZoneChoices(view.schedule.timeZone, ownZone).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id={`${id}-pages`}
          label="Maximum pages"
          error={errors.maxPages}
          hint={`${CRAWL_LIMITS.maxPages.min}–${CRAWL_LIMITS.maxPages.max}, taken from your daily page budget.`}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={CRAWL_LIMITS.maxPages.min}
            max={CRAWL_LIMITS.maxPages.max}
            value={form.maxPages}
            disabled={off}
            onChange={(e) => set('maxPages', Number(e.target.value))}
          />
        </Field>
        <Field
          id={`${id}-delay`}
          label="Crawl delay (ms)"
          error={errors.crawlDelay}
          hint="Time between requests to the site."
        >
          <Input
            type="number"
            inputMode="numeric"
            min={CRAWL_LIMITS.crawlDelay.min}
            max={CRAWL_LIMITS.crawlDelay.max}
            value={form.crawlDelay}
            disabled={off}
            onChange={(e) => set('crawlDelay', Number(e.target.value))}
          />
        </Field>
      </div>
      <FormError
        message={
          errors.form ??
          (update.isError && Object.keys(errors).length === 0 ? update.error.message : undefined)
        }
      />
      <Button type="submit" className="self-start" disabled={update.isPending}>
        {update.isPending ? 'Saving...' : 'Save Schedule'}
      </Button>
    </form>
  );
}

function formOf(view: ScheduleView) {
  return {
    ...view.schedule,
    maxPages: view.crawlRequest?.maxPages ?? CRAWL_LIMITS.maxPages.default,
    crawlDelay: view.crawlRequest?.crawlDelay ?? CRAWL_LIMITS.crawlDelay.default,
  };
}

const OUTCOMES: Record<ScheduleRun['outcome'], { label: string; variant: BadgeVariant }> = {
  started: { label: 'Started', variant: 'success' },
  refused: { label: 'Refused', variant: 'warning' },
  skipped: { label: 'Skipped', variant: 'secondary' },
};

/** Each due time written as the next run is, in the schedule's time zone (not the browser's, 12 h). */
function RunHistory({ runs, timeZone }: { runs: ScheduleRun[]; timeZone: string }) {
  return (
    <section className="flex flex-col gap-3" aria-labelledby="schedule-history">
      <h3 id="schedule-history" className="text-sm font-semibold">
        Scheduled runs
      </h3>
      {runs.length === 0 ? (
        <EmptyState
          icon={History}
          title="No scheduled runs yet"
          description="Each scheduled time is listed here: the analysis it started, or why it did not."
        />
      ) : (
        <ul
          className="flex flex-col divide-y divide-border rounded-lg border border-border"
          data-testid="schedule-history"
        >
          {runs.map((run) => (
            <li key={run.id} className="flex flex-col gap-1 px-4 py-3 sm:flex-row sm:items-center sm:gap-4">
              <span className="shrink-0 text-sm tabular-nums text-muted-foreground sm:w-44">
                {formatRunTime(run.at, timeZone)}
              </span>
              <Badge variant={OUTCOMES[run.outcome].variant} className="self-start sm:self-auto">
                {OUTCOMES[run.outcome].label}
              </Badge>
              <span className="min-w-0 flex-1 text-sm break-words">
                {run.analysisId ? (
                  <Link
                    to={`/analysis/${run.analysisId}`}
                    className="font-medium text-primary hover:underline"
                  >
                    View analysis
                  </Link>
                ) : (
                  run.reason
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
