// The policy the configuration sends, as it is edited: the header it goes under, its value, the verdict
// (badge and grade from its audit), the issues with their fix, copy and download, the headers sent beside
// it (Integrity-Policy, a Trusted Types policy) with what the audit says of them, the directive cards and
// the server file. Downloads of a saved, unchanged configuration come from the export API (the file a
// deploy pipeline fetches); otherwise from the same shared functions in the browser.

import {
  type ComposedPolicy,
  exportComposed,
  INTEGRITY_FINDING_CODES,
} from '@csp/shared/configurations/compose';
import { isIssue } from '@csp/shared/csp/grade';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import { renderPolicy } from '@csp/shared/csp/serialize';
import type { ServerType } from '@csp/shared/schemas/configuration';
import { Copy, Download } from 'lucide-react';
import { memo, useMemo } from 'react';
import { DirectiveList } from '@/components/policy/directive-list';
import { PolicyProtectionsLine } from '@/components/policy/policy-engines-line';
import { copyPolicy, PolicyHeader } from '@/components/policy/policy-header';
import { PolicyVerdict } from '@/components/policy/policy-verdict';
import { SeverityBadge } from '@/components/policy/severity-badge';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { downloadText } from '@/lib/download';
import { formatCount } from '@/lib/format';
import { type ConfigurationExportFormat, fetchConfigurationExport } from '../api/export-configuration';

const SERVER_LABELS: Record<ServerType, string> = { apache: 'Apache', nginx: 'Nginx', iis: 'IIS' };

/** Memoised: the panel around it renders on every keystroke and answer; this re-renders when its policy does. */
export const ComposedPolicyView = memo(function ComposedPolicyView({
  composed,
  audit,
  serverType,
  savedId,
}: {
  composed: ComposedPolicy;
  audit: PolicyAudit;
  serverType: ServerType;
  /** The saved configuration these downloads may come from (null: new or changed since saved). */
  savedId: string | null;
}) {
  const rendered = useMemo(() => renderPolicy(composed.rules), [composed.rules]);
  const server = useMemo(() => exportComposed(serverType, composed), [serverType, composed]);
  const directives = Object.keys(composed.rules).length;
  const issues = audit.findings.filter(isIssue);
  // The integrity options' findings that are not issues (those are listed with the issues above).
  const integrityNotes = audit.findings.filter((f) => INTEGRITY_FINDING_CODES.has(f.code) && !isIssue(f));

  const onCopy = () => copyPolicy(rendered.value);

  async function download(format: ConfigurationExportFormat) {
    const local = exportComposed(format === 'header' ? 'plain' : format, composed);
    try {
      const content = savedId ? await fetchConfigurationExport(savedId, format) : local.content;
      downloadText(local.filename, content);
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: error instanceof Error ? error.message : 'The download failed.',
      });
    }
  }

  return (
    <div className="flex min-w-0 flex-col gap-4" data-testid="composed-policy">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <PolicyVerdict audit={audit} />
        <span className="text-sm text-muted-foreground">
          {formatCount(directives)} directives · {formatCount(rendered.value.length)} characters
        </span>
        <div className="ml-auto flex gap-2">
          <Button variant="outline" size="sm" onClick={onCopy} data-testid="config-copy">
            <Copy aria-hidden="true" />
            Copy
          </Button>
          <Button size="sm" onClick={() => void download('header')} data-testid="config-download-policy">
            <Download aria-hidden="true" />
            Download
          </Button>
        </div>
      </div>
      <PolicyHeader
        name={composed.headerName}
        value={rendered.value}
        testId="config-policy-header"
        nameTestId="config-header-name"
        className="max-h-80"
      />
      {issues.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label="Security issues" data-testid="config-issues">
          {issues.map((f) => (
            <li
              key={`${f.code}:${f.directive}:${f.value ?? ''}`}
              className="flex flex-col gap-1 rounded-lg bg-amber-50/60 p-3 ring-1 ring-amber-100"
            >
              <div className="flex flex-wrap items-center gap-2">
                <SeverityBadge severity={f.severity} />
                <span className="font-mono text-xs">{f.directive}</span>
                {f.value ? (
                  <code className="font-mono text-xs [overflow-wrap:anywhere]">{f.value}</code>
                ) : null}
              </div>
              <p className="text-xs text-muted-foreground">{f.description}</p>
              {f.fix ? <p className="text-xs text-foreground">Fix: {f.fix}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {composed.extraHeaders.length > 0 ? (
        <section
          aria-labelledby="config-extra-heading"
          className="flex flex-col gap-2"
          data-testid="config-extra-headers"
        >
          <h3 id="config-extra-heading" className="text-sm font-semibold text-foreground">
            Sent with it
          </h3>
          {composed.extraHeaders.map((h) => (
            <PolicyHeader
              key={h.name}
              name={h.name}
              value={h.value}
              testId={`config-extra-${h.name.toLowerCase()}`}
            />
          ))}
        </section>
      ) : null}
      {integrityNotes.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label="Integrity notes" data-testid="config-integrity-notes">
          {integrityNotes.map((f) => (
            <li
              key={`${f.code}:${f.directive}`}
              className="flex flex-col gap-1 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200"
              data-code={f.code}
            >
              <div className="flex flex-wrap items-center gap-2">
                <SeverityBadge severity={f.severity} />
                {f.directive ? <span className="font-mono text-xs">{f.directive}</span> : null}
              </div>
              <p className="text-xs text-muted-foreground">{f.description}</p>
              {f.fix ? <p className="text-xs text-foreground">Fix: {f.fix}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <PolicyProtectionsLine rules={composed.rules} headers={composed.extraHeaders} />
      <DirectiveList rules={composed.rules} audit={audit} />
      <section aria-labelledby="config-server-heading" className="flex flex-col gap-2">
        <div className="flex items-center justify-between gap-3">
          <h3 id="config-server-heading" className="text-sm font-semibold text-foreground">
            {SERVER_LABELS[serverType]} configuration
          </h3>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void download(serverType)}
            data-testid="config-download-server"
          >
            <Download aria-hidden="true" />
            {server.filename}
          </Button>
        </div>
        {server.filename.startsWith('.') ? (
          <p className="text-xs text-muted-foreground">
            Browsers do not save hidden files: the download arrives as {server.filename.slice(1)}.txt. Rename
            it to {server.filename} on the server.
          </p>
        ) : null}
        <pre
          className="max-h-56 overflow-auto rounded-lg border border-slate-800 bg-slate-950 px-3 py-3 font-mono text-xs leading-5 text-slate-200"
          data-testid="config-server-file"
        >
          <code>{server.content}</code>
        </pre>
        {server.warnings.length > 0 ? (
          <Alert tone="warning" title={`Before you deploy the ${SERVER_LABELS[serverType]} configuration`}>
            <ul className="flex list-disc flex-col gap-1 pl-4" data-testid="config-export-warnings">
              {server.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Alert>
        ) : null}
      </section>
    </div>
  );
});
