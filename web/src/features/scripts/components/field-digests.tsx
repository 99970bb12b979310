// What visitors' browsers reported about one script: the SHA-256 digests they ran ('report-sha256'), each
// against the crawls' ("matches the crawl", "an earlier crawl saw it": a cached copy from before an update,
// or "a digest no crawl saw": content served to some visitors only, or tampered), and how many loaded it
// without integrity (Integrity-Policy). A compact line on the row, the digests on expand. Nothing is shown for a script no visitor reported.
import type { DigestVerdict, FieldScript } from '@csp/shared/watch/field-digests';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { countOf, formatDateTime } from '@/lib/format';
import { useFieldHashes } from '../api/get-field-hashes';
import { shortDigest } from '../utils/labels';

const VERDICTS: Record<DigestVerdict, { label: string; variant: BadgeVariant }> = {
  match: { label: 'Matches the crawl', variant: 'success' },
  // A visitor's cached copy from before the vendor's update (or a rollback): content a crawl did see.
  earlier: { label: 'An earlier crawl saw it', variant: 'secondary' },
  unknown: { label: 'A digest no crawl saw', variant: 'destructive' },
  unverified: { label: 'No crawl digest to compare', variant: 'secondary' },
};

export function FieldDigests({ domainId, scriptKey }: { domainId: string; scriptKey: string }) {
  const { data } = useFieldHashes(domainId);
  const script = data?.scripts.find((s) => s.key === scriptKey);
  if (!script) return null;
  return <FieldSummary script={script} />;
}

function FieldSummary({ script }: { script: FieldScript }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const unknown = script.digests.filter((d) => d.verdict === 'unknown').length;
  return (
    <div className="flex flex-col gap-1 text-xs" data-testid="field-digests" data-unknown={unknown}>
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
        {script.digests.length > 0 ? (
          <button
            type="button"
            className="inline-flex items-center gap-1 rounded text-left font-medium text-foreground hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen(!open)}
          >
            {open ? (
              <ChevronDown className="size-3.5" aria-hidden="true" />
            ) : (
              <ChevronRight className="size-3.5" aria-hidden="true" />
            )}
            Field: {countOf(script.digests.length, 'digest')}
            {unknown > 0 ? `, ${unknown} unknown` : ''}
          </button>
        ) : null}
        {unknown > 0 ? <Badge variant="destructive">Content no crawl saw</Badge> : null}
        {script.digests.length > 0 && script.digests.every((d) => d.verdict === 'match') ? (
          <Badge variant="success">Matches the crawl</Badge>
        ) : null}
        {script.integrity ? (
          <span className="text-amber-800" data-testid="field-integrity">
            {countOf(script.integrity.count, "visitor's browser", "visitors' browsers")} reported it without
            integrity
          </span>
        ) : null}
      </div>
      {open ? (
        <ul
          id={listId}
          className="flex flex-col gap-1 border-l-2 border-border pl-3"
          aria-label="Field digests"
        >
          {script.digests.map((d) => (
            <li
              key={d.digest}
              className="flex flex-wrap items-center gap-x-2 gap-y-0.5"
              data-verdict={d.verdict}
            >
              <span className="break-all font-mono" title={d.digest}>
                {shortDigest(d.digest)}
              </span>
              <Badge variant={VERDICTS[d.verdict].variant}>{VERDICTS[d.verdict].label}</Badge>
              <span className="text-muted-foreground">
                {countOf(d.count, 'report')} · {formatDateTime(d.firstSeen)} – {formatDateTime(d.lastSeen)}
              </span>
            </li>
          ))}
          {script.otherDigestReports > 0 ? (
            <li className="text-muted-foreground">
              and {countOf(script.otherDigestReports, 'report')} of further digests (not kept one by one)
            </li>
          ) : null}
          {script.crawlSha256 ? (
            <li className="text-muted-foreground">
              The last crawl saw <span className="break-all font-mono">{script.crawlSha256}</span>
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
