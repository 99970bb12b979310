// One violation report with every field of the spec. Its strings come from browsers, or from whoever
// posts to the endpoint: they are rendered as text (React escapes them), never as markup or links.
import type { UriReport } from '@csp/shared/schemas/report';
import { Trash2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { ageLabel } from '../utils/age';

const orDash = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : String(v);

export function ReportRow({
  report,
  now,
  deleting,
  onDelete,
}: {
  report: UriReport;
  now: number;
  deleting: boolean;
  /** Absent when the viewer may not delete (a team member reading the owner's domain). */
  onDelete?: () => void;
}) {
  const fields: [string, string][] = [
    ['Document', orDash(report.documentUri)],
    ['Source file', orDash(report.sourceFile)],
    ['Line / column', `${orDash(report.lineNumber)} / ${orDash(report.columnNumber)}`],
    ['User agent', orDash(report.userAgent)],
  ];
  return (
    <li
      className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3 sm:p-4"
      data-testid="report-row"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant="outline" className="font-mono">
              {report.violatedDirective}
            </Badge>
            <span className="text-xs text-muted-foreground" title={formatDateTime(report.reportedAt)}>
              {ageLabel(report.reportedAt, now)}
            </span>
          </div>
          <p className="[overflow-wrap:anywhere] font-mono text-sm text-foreground">
            {orDash(report.blockedUri)}
          </p>
        </div>
        {onDelete ? (
          <Button
            variant="ghost"
            size="icon"
            aria-label="Delete report"
            disabled={deleting}
            onClick={onDelete}
            className="shrink-0 text-muted-foreground hover:text-destructive"
          >
            <Trash2 aria-hidden="true" />
          </Button>
        ) : null}
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[8rem_1fr]">
        {fields.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]">{value}</dd>
          </div>
        ))}
        <dt className="text-muted-foreground">Sample</dt>
        <dd className="min-w-0">
          {report.scriptSample ? (
            <code className="block whitespace-pre-wrap [overflow-wrap:anywhere] rounded bg-slate-50 px-1.5 py-1 font-mono">
              {report.scriptSample}
            </code>
          ) : (
            '—'
          )}
        </dd>
      </dl>
    </li>
  );
}
