// The directives of a policy as collapsible cards (spec: script-src starts open, the others closed), with
// Expand all / Collapse all. Which sources are a risk comes from the policy's audit.

import { compareDirectives } from '@csp/shared/csp/directives';
import type { CspRules } from '@csp/shared/csp/policy';
import { issueSources, type PolicyAudit } from '@csp/shared/csp/policy-audit';
import { useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { DirectiveCard } from './directive-card';

export function DirectiveList({ rules, audit }: { rules: CspRules; audit: PolicyAudit }) {
  const headingId = useId();
  const [openDirectives, setOpenDirectives] = useState<ReadonlySet<string>>(() => new Set(['script-src']));
  const directives = useMemo(() => Object.keys(rules).sort(compareDirectives), [rules]);

  function setOpen(directive: string, open: boolean) {
    setOpenDirectives((current) => {
      const next = new Set(current);
      if (open) next.add(directive);
      else next.delete(directive);
      return next;
    });
  }

  return (
    // Rendered only near the screen (index.css): a policy's cards are a few hundred elements, below the fold.
    <section aria-labelledby={headingId} className="render-when-near flex flex-col gap-3">
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="text-sm font-semibold text-foreground">
          Directives
        </h3>
        <div className="flex gap-1">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setOpenDirectives(new Set(directives))}
            disabled={directives.every((d) => openDirectives.has(d))}
          >
            Expand all
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setOpenDirectives(new Set())}
            disabled={!directives.some((d) => openDirectives.has(d))}
          >
            Collapse all
          </Button>
        </div>
      </div>
      <div className="flex flex-col gap-2">
        {directives.map((directive) => (
          <DirectiveCard
            key={directive}
            directive={directive}
            sources={rules[directive] ?? []}
            issues={issueSources(audit, directive)}
            open={openDirectives.has(directive)}
            onOpenChange={(open) => setOpen(directive, open)}
          />
        ))}
      </div>
    </section>
  );
}
