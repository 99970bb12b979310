// The empty state: how reports reach us. Generated policies already carry both directives; a site with a
// policy of its own adds them and the Reporting-Endpoints header.
import { Copy, ShieldCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { toast } from '@/hooks/use-toast';
import { COPIED_TOAST, copyText } from '@/lib/clipboard';

export function ReportsInstall({ endpoint, days }: { endpoint: string; days: number }) {
  const lines = [
    `Content-Security-Policy: …; report-uri ${endpoint}; report-to csp-endpoint`,
    `Reporting-Endpoints: csp-endpoint="${endpoint}"`,
  ];
  const copy = () =>
    copyText(lines.join('\n')).then(
      () => toast(COPIED_TOAST),
      () => toast({ variant: 'destructive', title: 'Error', description: 'Could not copy to the clipboard' }),
    );
  return (
    <div className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-200 bg-slate-50/60 px-4 py-8 text-center sm:px-6">
      <span className="flex size-11 items-center justify-center rounded-full bg-white text-slate-400 shadow-xs ring-1 ring-slate-200">
        <ShieldCheck className="size-5" aria-hidden="true" />
      </span>
      <div className="flex max-w-xl flex-col gap-1">
        <p className="text-sm font-medium">
          No violation reports in the last {days === 1 ? '24 hours' : `${days} days`}
        </p>
        <p className="text-sm text-muted-foreground">
          Policies generated here already send reports to this domain's endpoint. If your site serves a policy
          of its own, add the report-uri and report-to directives and the Reporting-Endpoints header:
        </p>
      </div>
      <pre className="w-full max-w-2xl overflow-x-auto whitespace-pre-wrap [overflow-wrap:anywhere] rounded-md bg-slate-900 px-3 py-2 text-left font-mono text-xs text-slate-100">
        {lines.join('\n')}
      </pre>
      <Button variant="outline" size="sm" onClick={() => void copy()}>
        <Copy aria-hidden="true" />
        Copy headers
      </Button>
    </div>
  );
}
