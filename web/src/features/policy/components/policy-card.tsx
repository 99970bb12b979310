// The generated policy (spec "CSP rules generator panel", policy view): the header value, the badge and
// grade from the policy's audit (policy-verdict.tsx), 'Needs attention' when
// the analysis says so or its verification does not hold, the self-verification, the header budget,
// an Allowlist / Strict toggle when the analysis has both, one collapsible card per directive (script-src
// open), Copy, Download (csp-policy.txt) and server configurations.
import { auditPolicy } from '@csp/shared/csp/audit';
import type { CspRules, PolicyBudget } from '@csp/shared/csp/policy';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import { CSP_HEADER, renderPolicy } from '@csp/shared/csp/serialize';
import { serverExport } from '@csp/shared/csp/server-export';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { CircleAlert, Copy, Download, ShieldCheck } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DirectiveList } from '@/components/policy/directive-list';
import { PolicyEnginesLine, PolicyProtectionsLine } from '@/components/policy/policy-engines-line';
import { copyPolicy, PolicyHeader } from '@/components/policy/policy-header';
import { PolicyVerdict } from '@/components/policy/policy-verdict';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { SegmentedControl } from '@/components/ui/segmented-control';
import { downloadText } from '@/lib/download';
import { formatCount } from '@/lib/format';
import { ExportPanel } from './export-panel';
import { PolicyBudgetLine } from './policy-budget-line';
import { VerificationLine } from './verification-line';

export type PolicyMode = 'allowlist' | 'strict';

/**
 * The mode shown, the rules of that mode (the strict rules only when the analysis has them) and their
 * audit as stored with the analysis (computed here only if the server sent none).
 */
export function usePolicyMode(
  analysis: Pick<Analysis, 'cspRules' | 'strictCspRules' | 'audit' | 'strictAudit' | 'findings'>,
) {
  const [mode, setMode] = useState<PolicyMode>('allowlist');
  const strict = analysis.strictCspRules ?? null;
  const effective: PolicyMode = mode === 'strict' && strict ? 'strict' : 'allowlist';
  const rules: CspRules = (effective === 'strict' ? strict : analysis.cspRules) ?? {};
  const stored = effective === 'strict' ? analysis.strictAudit : analysis.audit;
  const audit = useMemo(
    () =>
      stored ??
      auditPolicy(rules, {
        generatorFindings: effective === 'allowlist' ? (analysis.findings ?? []) : [],
        // A generated policy's report-uri is the product's own endpoint: the generator wrote it.
        productEndpoint: rules['report-uri']?.[0] ?? null,
      }),
    [stored, rules, effective, analysis.findings],
  );
  return { mode: effective, setMode, rules, audit, hasStrict: Boolean(strict) };
}

const MODE_HINTS: Record<PolicyMode, string> = {
  allowlist: 'Exact origins and hashes of everything the crawl saw. Works without changes to your pages.',
  strict:
    "A nonce with 'strict-dynamic' and hashes: resists allowlist bypasses, but your server must add a fresh nonce to every <script> tag.",
};

export function PolicyCard({
  rules,
  audit,
  verification,
  needsAttention = false,
  budget,
  mode,
  onModeChange,
  hasStrict,
}: {
  rules: CspRules;
  audit: PolicyAudit;
  verification: Analysis['verification'];
  /** Show 'Needs attention' (the analysis flags it, or its verification does not hold). */
  needsAttention?: boolean;
  /** The budget the allowlist policy was fitted to (shown with that policy only). */
  budget?: PolicyBudget | null | undefined;
  mode: PolicyMode;
  onModeChange: (mode: PolicyMode) => void;
  hasStrict: boolean;
}) {
  const rendered = useMemo(() => renderPolicy(rules), [rules]);
  const directiveCount = Object.keys(rules).length;

  const onCopy = () => copyPolicy(rendered.value);

  function onDownload() {
    // The analysis' policy is the one to enforce: the file names Content-Security-Policy, as the preview does.
    const plain = serverExport('plain', rules, { reportOnly: false });
    downloadText(plain.filename, plain.content);
  }

  return (
    <Card
      data-testid="policy-card"
      data-attention={needsAttention}
      className={needsAttention ? 'border-red-200' : undefined}
    >
      <CardHeader
        actions={
          <>
            <Button variant="outline" size="sm" onClick={onCopy}>
              <Copy aria-hidden="true" />
              Copy
            </Button>
            <Button size="sm" onClick={onDownload} data-testid="download-policy">
              <Download aria-hidden="true" />
              Download
            </Button>
          </>
        }
      >
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="size-4 shrink-0 text-primary" aria-hidden="true" />
          Generated Content Security Policy
        </CardTitle>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {needsAttention ? (
            <Badge variant="destructive" data-testid="needs-attention">
              <CircleAlert className="size-3" aria-hidden="true" />
              Needs attention
            </Badge>
          ) : null}
          <PolicyVerdict audit={audit} />
          <CardDescription>
            {formatCount(directiveCount)} directives · {formatCount(rendered.value.length)} characters
          </CardDescription>
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {hasStrict ? (
          <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:gap-4">
            <SegmentedControl
              label="Policy mode"
              value={mode}
              onValueChange={onModeChange}
              options={[
                { value: 'allowlist', label: 'Allowlist' },
                { value: 'strict', label: 'Strict' },
              ]}
              className="self-start"
            />
            <p className="text-xs text-muted-foreground">{MODE_HINTS[mode]}</p>
          </div>
        ) : null}

        <VerificationLine verification={verification} />

        <PolicyHeader name={CSP_HEADER} value={rendered.value} testId="policy-header" />
        {budget && mode === 'allowlist' ? <PolicyBudgetLine budget={budget} /> : null}
        <PolicyEnginesLine rules={rules} />
        <PolicyProtectionsLine rules={rules} />
        {rendered.warnings.length > 0 ? (
          <Alert tone="warning" title="Some sources could not be written into the header">
            <ul className="flex list-disc flex-col gap-1 pl-4">
              {rendered.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Alert>
        ) : null}

        <DirectiveList rules={rules} audit={audit} />

        <ExportPanel rules={rules} />
      </CardContent>
    </Card>
  );
}
