// A script's Subresource Integrity in the inventory: "SRI ready" with a button that copies its
// `<script src integrity crossorigin>` tag, or "No SRI" with the reason a person acts on (the other reasons in
// the tooltip). Read from the inventory entry itself (shared/src/integrity/proposal.ts): its digests over runs
// say whether the content stayed one file. Nothing for inline code, handlers and workers.
import { scriptIntegrityVerdict, sriReasonText } from '@csp/shared/integrity/proposal';
import { integrityTag } from '@csp/shared/integrity/tags';
import type { ScriptView } from '@csp/shared/schemas/script-inventory';
import { Copy } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { copyWithToast } from '@/hooks/copy-with-toast';

export function SriCell({ script }: { script: ScriptView }) {
  const verdict = scriptIntegrityVerdict(script);
  if (!verdict || script.url === null) return null;
  const tag =
    verdict.ready && verdict.sha384
      ? integrityTag({
          kind: 'script',
          url: script.url,
          sha384: verdict.sha384,
          ready: true,
          crossorigin: verdict.crossorigin,
          reasons: [],
          pageCount: script.pageCount,
        })
      : null;
  if (tag) {
    return (
      <div className="flex flex-wrap items-center gap-1.5 text-xs" data-testid="sri-cell" data-sri="ready">
        <Badge variant="success" title={tag}>
          SRI ready
        </Badge>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2"
          onClick={() => void copyWithToast(tag, 'the script tag', { title: 'Script tag copied' })}
        >
          <Copy aria-hidden="true" />
          Copy tag
        </Button>
      </div>
    );
  }
  const [first, ...rest] = verdict.reasons.map((r) => sriReasonText(r));
  return (
    <p
      className="text-xs text-muted-foreground"
      data-testid="sri-cell"
      data-sri="none"
      title={rest.join('\n')}
    >
      <Badge variant="outline">No SRI</Badge> {first}
      {rest.length > 0 ? ` (and ${rest.length} more)` : ''}
    </p>
  );
}
