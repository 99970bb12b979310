// The header budget: a policy we hand out fits where it is deployed. Behind nginx, a response whose
// headers outgrow the proxy buffer (4 KB by default) fails with a 502; a CloudFront response-headers
// policy refuses a CSP value over 1,783 characters. When the policy is too long, the safest trades are made
// first, each one listed as a finding, and a policy that still does not fit says so loudly. Pure.
import * as z from 'zod';
import { NONE, REPORT_SAMPLE, UNSAFE_HASHES, UNSAFE_INLINE } from './directives';
import type { PolicyFinding } from './finding';
import { type CspRules, POLICY_TARGETS, type PolicyBudget } from './policy';
import { CLOUDFRONT_CSP_MAX, CSP_HEADER, NGINX_PROXY_BUFFER, serializePolicy } from './serialize';

export const budgetOptionsSchema = z.object({
  target: z.enum(POLICY_TARGETS).default('header'),
  /** Bytes of the header line ('header'), or characters of the value ('cloudfront', at most 1,783). */
  limit: z.number().int().positive().default(NGINX_PROXY_BUFFER),
});
export type BudgetOptions = z.input<typeof budgetOptionsSchema>;

type Trade = Omit<PolicyFinding, 'checker'>;

/** How long the policy is, in the budget's unit. */
export function policyLength(rules: CspRules, target: BudgetOptions['target']): number {
  const value = serializePolicy(rules);
  if (target === 'cloudfront') return value.length;
  return new TextEncoder().encode(`${CSP_HEADER}: ${value}`).length;
}

const isHash = (source: string) => /^'sha(256|384|512)-/.test(source);

export function fitToBudget(
  input: CspRules,
  options: BudgetOptions | undefined,
  scriptHashPages: ReadonlyMap<string, ReadonlySet<string>>,
): { rules: CspRules; findings: Trade[]; budget: PolicyBudget } {
  const { target, limit: asked } = budgetOptionsSchema.parse(options ?? {});
  const limit = target === 'cloudfront' ? Math.min(asked, CLOUDFRONT_CSP_MAX) : asked;
  const unit = target === 'cloudfront' ? 'characters' : 'bytes';
  let rules: CspRules = { ...input };
  const findings: Trade[] = [];
  const length = () => policyLength(rules, target);

  /** Applies a trade if the policy is still over; records what it saved. */
  const trade = (
    directive: string,
    change: (rules: CspRules) => CspRules | null,
    describe: (saved: number) => Omit<Trade, 'code' | 'directive'>,
  ) => {
    const before = length();
    if (before <= limit) return;
    const next = change(rules);
    if (!next) return;
    rules = next;
    findings.push({ code: 'budget-trade', ...describe(before - length()), directive });
  };

  // 1. Inline style hashes → 'unsafe-inline' for that style directive (styles cannot run script).
  for (const directive of ['style-src-attr', 'style-src'] as const) {
    trade(
      directive,
      (r) => {
        const sources = r[directive];
        const hashes = sources?.filter(isHash) ?? [];
        if (!sources || hashes.length === 0) return null;
        const kept = sources.filter((s) => !isHash(s) && s !== UNSAFE_HASHES && s !== UNSAFE_INLINE);
        return {
          ...r,
          [directive]: [...kept.filter((s) => s !== REPORT_SAMPLE), UNSAFE_INLINE, REPORT_SAMPLE],
        };
      },
      (saved) => ({
        severity: 'low',
        value: UNSAFE_INLINE,
        description: `To fit the ${limit}-${unit} header budget, ${directive}'s inline style hashes were replaced by 'unsafe-inline' (saves ${saved} ${unit}). Inline styles cannot run script; moving them into a stylesheet would let the hashes go.`,
      }),
    );
  }

  // 2. Script hashes seen on one page only → left out, listed (those scripts are blocked there).
  const perPage = new Map<string, string>();
  for (const [hash, pages] of scriptHashPages) if (pages.size === 1) perPage.set(hash, [...pages][0]!);
  for (const directive of ['script-src', 'script-src-attr'] as const) {
    const dropped: string[] = [];
    trade(
      directive,
      (r) => {
        const sources = r[directive];
        if (!sources) return null;
        const kept = sources.filter((s) => {
          if (!perPage.has(s)) return true;
          dropped.push(s);
          return false;
        });
        if (dropped.length === 0) return null;
        let next = kept;
        if (!next.some(isHash)) next = next.filter((s) => s !== UNSAFE_HASHES);
        if (directive === 'script-src-attr' && !next.some((s) => s !== REPORT_SAMPLE)) next = [NONE];
        return { ...r, [directive]: next };
      },
      (saved) => ({
        severity: 'medium',
        value: `${dropped.length} hash(es)`,
        description: `To fit the ${limit}-${unit} header budget, ${dropped.length} ${directive === 'script-src' ? 'inline script' : 'event handler'} hash(es) seen on one page only were left out (saves ${saved} ${unit}), so that code is blocked there: ${dropped
          .slice(0, 5)
          .map((h) => `${h} on ${perPage.get(h)}`)
          .join(
            '; ',
          )}${dropped.length > 5 ? ` and ${dropped.length - 5} more` : ''}. Use strict mode (a nonce per response) or move that code into a file.`,
      }),
    );
  }

  const final = length();
  if (final > limit) {
    findings.push({
      severity: 'high',
      directive: '',
      code: 'over-budget',
      value: `${final}/${limit}`,
      description:
        target === 'cloudfront'
          ? `The policy is ${final} characters, over the ${limit} a CloudFront response-headers policy accepts, even after every safe trade. Serve it from the origin instead, or shorten it (fewer third-party origins).`
          : `The policy header is ${final} bytes, over the ${limit}-byte budget, even after every safe trade: behind nginx's default proxy buffers the response fails (502). Raise proxy_buffer_size, or shorten the policy (fewer third-party origins).`,
    });
  }
  return { rules, findings, budget: { target, limit, length: final, fits: final <= limit } };
}
