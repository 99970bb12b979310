// Server configuration for the shown policy (Apache .htaccess, Nginx nginx.conf, IIS web.config): a preview,
// the export's warnings, and a download.
import type { CspRules } from '@csp/shared/csp/policy';
import type { ExportFormat } from '@csp/shared/csp/serialize';
import { serverExport } from '@csp/shared/csp/server-export';
import { Download, Server } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { downloadText } from '@/lib/download';

const SERVER_FORMATS = [
  { format: 'apache', label: 'Apache' },
  { format: 'nginx', label: 'Nginx' },
  { format: 'iis', label: 'IIS' },
] as const satisfies ReadonlyArray<{ format: ExportFormat; label: string }>;

type ServerFormat = (typeof SERVER_FORMATS)[number]['format'];

export function ExportPanel({ rules }: { rules: CspRules }) {
  const [format, setFormat] = useState<ServerFormat>('apache');
  const exports = useMemo(
    () =>
      Object.fromEntries(
        SERVER_FORMATS.map(({ format: f }) => [f, serverExport(f, rules, { reportOnly: false })]),
      ),
    [rules],
  );
  return (
    <section aria-labelledby="export-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-1">
        <h3 id="export-heading" className="flex items-center gap-2 text-sm font-semibold text-foreground">
          <Server className="size-4 text-muted-foreground" aria-hidden="true" />
          Server configuration
        </h3>
        <p className="text-sm text-muted-foreground">
          Send the policy as a response header from your web server.
        </p>
      </div>
      <Tabs value={format} onValueChange={(v) => setFormat(v as ServerFormat)}>
        <TabsList label="Server type" className="self-start">
          {SERVER_FORMATS.map(({ format: f, label }) => (
            <TabsTrigger key={f} value={f}>
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        {SERVER_FORMATS.map(({ format: f, label }) => {
          const exported = exports[f]!;
          return (
            <TabsContent key={f} value={f} className="flex flex-col gap-3">
              <div className="overflow-hidden rounded-lg border border-slate-800 bg-slate-950">
                <div className="flex items-center justify-between gap-3 border-b border-white/10 px-3 py-2">
                  <span className="font-mono text-xs text-slate-400">{exported.filename}</span>
                  <Button
                    variant="ghost"
                    size="sm"
                    className="h-7 text-slate-200 hover:bg-white/10 hover:text-white"
                    onClick={() => downloadText(exported.filename, exported.content)}
                    data-testid={`download-${f}`}
                  >
                    <Download aria-hidden="true" />
                    Download {label} config
                  </Button>
                </div>
                <pre className="max-h-64 overflow-auto px-3 py-3 font-mono text-xs leading-5 text-slate-200">
                  <code>{exported.content}</code>
                </pre>
              </div>
              {exported.warnings.length > 0 ? (
                <Alert tone="warning" title={`Before you deploy the ${label} configuration`}>
                  <ul className="flex list-disc flex-col gap-1 pl-4" data-testid="export-warnings">
                    {exported.warnings.map((w) => (
                      <li key={w}>{w}</li>
                    ))}
                  </ul>
                </Alert>
              ) : null}
            </TabsContent>
          );
        })}
      </Tabs>
    </section>
  );
}
