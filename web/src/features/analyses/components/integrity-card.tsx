// 'Subresource Integrity': how many of the crawled external scripts and stylesheets can be pinned with
// `integrity` now (versioned URL, readable by the browser, one content seen), what keeps the others from it
// (counted by their first reason), and the tags per page template as a download.
import { sriReasonText } from '@csp/shared/integrity/proposal';
import type {
  SriReason,
  SriResourceKind,
  SubresourceIntegrity,
} from '@csp/shared/schemas/subresource-integrity';
import { Download, Fingerprint } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormError } from '@/components/ui/form-error';
import { ApiError } from '@/lib/api-client';
import { downloadText } from '@/lib/download';
import { countOf } from '@/lib/format';
import { fetchIntegrityTags } from '../api/download-integrity';

export function IntegrityCard({
  analysisId,
  proposal,
}: {
  analysisId: string;
  proposal: SubresourceIntegrity;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const ready = proposal.resources.filter((r) => r.ready).length;
  // Per first reason: how many, and the kind of the first file it names (the text says script or stylesheet).
  const blocked = new Map<SriReason, { count: number; kind: SriResourceKind }>();
  for (const r of proposal.resources) {
    const first = r.reasons[0];
    if (r.ready || !first) continue;
    const seen = blocked.get(first);
    blocked.set(first, { count: (seen?.count ?? 0) + 1, kind: seen?.kind ?? r.kind });
  }
  const download = async () => {
    setPending(true);
    setError(undefined);
    try {
      const file = await fetchIntegrityTags(analysisId);
      downloadText(file.filename, file.content, 'text/html;charset=utf-8');
    } catch (err) {
      setError(err instanceof ApiError ? err.serverMessage || err.message : (err as Error).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <Card data-testid="integrity-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Fingerprint className="size-4 text-primary" aria-hidden="true" />
          Subresource Integrity
        </CardTitle>
        <CardDescription>
          Pinned with <code>integrity</code>, a changed script or stylesheet is refused by the browser.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        {proposal.resources.length === 0 ? (
          <p className="text-muted-foreground">The crawl saw no external scripts or stylesheets.</p>
        ) : (
          <>
            <p>
              <span className="font-semibold">{ready}</span> of{' '}
              {countOf(proposal.resources.length, 'external file')} ready for SRI
              {proposal.resourceCount > proposal.resources.length
                ? ` (${proposal.resourceCount - proposal.resources.length} more not judged)`
                : ''}
              .
            </p>
            {blocked.size > 0 ? (
              <ul className="flex flex-col gap-1 text-xs text-muted-foreground">
                {[...blocked].map(([reason, { count, kind }]) => (
                  <li key={reason}>
                    <span className="font-medium text-foreground">{count}</span>:{' '}
                    {sriReasonText(reason, kind)}
                  </li>
                ))}
              </ul>
            ) : null}
            <Button variant="outline" size="sm" className="self-start" onClick={download} loading={pending}>
              <Download aria-hidden="true" />
              Download tags per template
            </Button>
            <FormError message={error} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
