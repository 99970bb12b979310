// Google's csp_evaluator (the engine of csp-evaluator.withgoogle.com) as one check of the audit: its findings
// as our plain PolicyFinding objects on our own severity scale.
// csp_evaluator ships CommonJS without an "exports" map; the dist/*.js entry points are the documented way
// in (its README) and load under Node ESM, vitest and tsx through Node's named-export detection.
import { CspEvaluator, DEFAULT_CHECKS, STRICTCSP_CHECKS } from 'csp_evaluator/dist/evaluator.js';
import { Severity as EvaluatorSeverity, type Finding, Type } from 'csp_evaluator/dist/finding.js';
import { CspParser } from 'csp_evaluator/dist/parser.js';
import * as z from 'zod';
import { compareFindings, type PolicyFinding, type Severity } from '../finding';
import type { CspRules } from '../policy';
import { serializePolicy } from '../serialize';
import type { PolicyCheck } from './check';
import { hostKind, hostOfSource } from './local-sources';

export const GRADE_CHECK_SETS = ['default', 'all'] as const;
export const gradeOptionsSchema = z.object({
  /**
   * default: csp_evaluator's security checks (DEFAULT_CHECKS) on the effective CSP3 policy.
   * all: those plus STRICTCSP_CHECKS (strict-CSP advice and backward-compatibility fallbacks), run on the
   * policy as written, because the fallbacks they look for are exactly what the effective policy drops.
   */
  checks: z.enum(GRADE_CHECK_SETS).default('all'),
});
export type GradeOptions = z.input<typeof gradeOptionsSchema>;

/**
 * csp_evaluator severities are numbers where lower is worse but the scale is not monotonic in meaning:
 * HIGH 10, SYNTAX 20, MEDIUM 30, HIGH_MAYBE 40, STRICT_CSP 45, MEDIUM_MAYBE 50, INFO 60, NONE 100.
 * Mapping:
 * - SYNTAX → high: a malformed directive or keyword is dropped by the browser, silently removing protection.
 * - HIGH_MAYBE → medium, MEDIUM_MAYBE → low: "maybe" findings depend on facts the evaluator cannot see
 *   (e.g. whether an allowlisted host serves JSONP), so they rank one step below the certain ones.
 * - STRICT_CSP → low: advice to adopt nonces/'strict-dynamic', not a hole in this policy.
 * - INFO and NONE (notes such as "ignored because of 'strict-dynamic'") → info.
 */
export function mapEvaluatorSeverity(severity: EvaluatorSeverity): Severity {
  switch (severity) {
    case EvaluatorSeverity.HIGH:
    case EvaluatorSeverity.SYNTAX:
      return 'high';
    case EvaluatorSeverity.MEDIUM:
    case EvaluatorSeverity.HIGH_MAYBE:
      return 'medium';
    case EvaluatorSeverity.STRICT_CSP:
    case EvaluatorSeverity.MEDIUM_MAYBE:
      return 'low';
    default:
      return 'info';
  }
}

/** How to fix what csp_evaluator reports (it says what is wrong; the findings card also says what to do). */
const FIXES: Partial<Record<keyof typeof Type, string>> = {
  MISSING_SEMICOLON:
    'Separate directives with ";": the browser reads the rest as sources of the previous one.',
  UNKNOWN_DIRECTIVE: 'Correct or remove the directive: browsers ignore names they do not know.',
  INVALID_KEYWORD: "Quote keywords ('self', 'none') and spell them as the CSP grammar does.",
  NONCE_CHARSET: 'Use base64 characters only in the nonce.',
  NONCE_LENGTH: 'Use a nonce of at least 16 random bytes, new for every response.',
  MISSING_DIRECTIVES: "Add the directive: object-src 'none', base-uri 'self' (or 'none'), and a script-src.",
  SCRIPT_ALLOWLIST_BYPASS:
    "Allow scripts by nonce or hash with 'strict-dynamic' (the strict policy) instead of by host, or drop hosts that serve JSONP or Angular.",
  OBJECT_ALLOWLIST_BYPASS: "Set object-src 'none' unless the site really embeds plugins.",
  IP_SOURCE: 'Name the host instead of its IP address.',
  DEPRECATED_DIRECTIVE: 'Remove it, or keep it beside its replacement for older browsers.',
  SRC_HTTP: 'Use https: so the resource (or the reports) cannot be changed or read on the way.',
  SRC_NO_PROTOCOL: 'Write the scheme (https://host) so http: is not allowed as well.',
  WILDCARD_URL: 'Name the exact host instead of a wildcard.',
  STRICT_DYNAMIC: "Adopt the strict policy: a nonce per response with 'strict-dynamic'.",
  STRICT_DYNAMIC_NOT_STANDALONE:
    "Add a nonce or hash beside 'strict-dynamic': without one no script can load.",
  NONCE_HASH: 'Add a nonce or hashes to script-src.',
  ALLOWLIST_FALLBACK:
    "Add https: beside 'strict-dynamic' for browsers that do not support it (newer ones ignore it).",
  REQUIRE_TRUSTED_TYPES_FOR_SCRIPTS:
    "Once the site passes with it in report-only mode, add require-trusted-types-for 'script' against DOM XSS.",
};

/**
 * csp_evaluator says an IP address source "will be ignored by browsers": they do not ignore an IPv4 address
 * (it is matched like a host name; the product's verification loads such sources), so we say what holds.
 */
const REPORTING_DIRECTIVES = new Set(['report-uri', 'report-to']);

function ipSourceDescription(directive: string, value: string | undefined): string | undefined {
  const host = value ? hostOfSource(value) : undefined;
  if (!host) return undefined;
  if (host.startsWith('[')) {
    return `${directive} names the IPv6 address ${host}: the CSP source grammar has no form for IPv6 addresses, so browsers may ignore it.`;
  }
  const kind = hostKind(host);
  const what =
    kind === 'loopback'
      ? 'the loopback address'
      : kind === 'private'
        ? 'the private address'
        : 'the IP address';
  const use = REPORTING_DIRECTIVES.has(directive)
    ? 'send reports to it as they would to a named host'
    : 'load from it as they would from a named host';
  return `${directive} names ${what} ${host}: browsers ${use}, but the policy then holds only while that address serves the site.`;
}

function toPolicyFinding(f: Finding): PolicyFinding {
  const code = Type[f.type] ?? String(f.type);
  const finding: PolicyFinding = {
    severity: mapEvaluatorSeverity(f.severity),
    directive: f.directive,
    description: (code === 'IP_SOURCE' && ipSourceDescription(f.directive, f.value)) || f.description,
    code,
    checker: 'csp_evaluator',
  };
  if (f.value !== undefined) finding.value = f.value;
  const fix = FIXES[code as keyof typeof Type];
  if (fix) finding.fix = fix;
  return finding;
}

/** csp_evaluator's findings for a policy (rules or a header value); most severe first. */
export function evaluatorFindings(policy: CspRules | string, options: GradeOptions = {}): PolicyFinding[] {
  const opts = gradeOptionsSchema.parse(options);
  const text = typeof policy === 'string' ? policy : serializePolicy(policy);
  const parsed = new CspParser(text).csp;
  const evaluator = new CspEvaluator(parsed);
  const raw = evaluator.evaluate(opts.checks === 'all' ? STRICTCSP_CHECKS : [], DEFAULT_CHECKS);
  // The evaluator normalises script-src once per script directive, so its "ignored" notes repeat.
  const unique = new Map<string, PolicyFinding>();
  for (const f of raw.map(toPolicyFinding))
    unique.set(`${f.code}\u0000${f.directive}\u0000${f.value ?? ''}`, f);
  return [...unique.values()].sort(compareFindings);
}

/**
 * What our own checks say better (with the effective policy, our severities and a fix): left out here so a
 * problem is reported once. Syntax, missing directives, allowlist bypasses, nonce length, IP and http:
 * sources, deprecated directives and the strict-CSP advice come from csp_evaluator alone.
 */
const COVERED_BY_OWN_CHECKS = new Set<string>([
  'SCRIPT_UNSAFE_INLINE',
  'STYLE_UNSAFE_INLINE',
  'UNSAFE_INLINE_FALLBACK',
  'SCRIPT_UNSAFE_EVAL',
  'SCRIPT_UNSAFE_HASHES',
  'PLAIN_WILDCARD',
  'PLAIN_URL_SCHEMES',
  'REPORTING_DESTINATION_MISSING',
  'REPORT_TO_ONLY',
  'STATIC_NONCE',
]);

/**
 * csp_evaluator with DEFAULT_CHECKS and STRICTCSP_CHECKS. Severities: see mapEvaluatorSeverity; e.g.
 * `script-src https://www.google.com` fires SCRIPT_ALLOWLIST_BYPASS (JSONP endpoints there run any code).
 */
export const cspEvaluatorCheck: PolicyCheck = (policy, context) =>
  evaluatorFindings(policy.rules).filter(
    (f) =>
      !COVERED_BY_OWN_CHECKS.has(f.code) &&
      !(f.code === 'INVALID_KEYWORD' && f.value && NEWER_KEYWORDS.has(f.value.toLowerCase())) &&
      // The configuration sends Trusted Types in a header of its own: the advice to add it is taken.
      !(f.code === 'REQUIRE_TRUSTED_TYPES_FOR_SCRIPTS' && context.trustedTypes !== 'off'),
  );

/**
 * Keywords of CSP3 newer than csp_evaluator's grammar ('report-sha256' and its siblings, hash reporting,
 * checks/integrity.ts): valid, so not the "invalid keyword" it calls them.
 */
const NEWER_KEYWORDS = new Set(["'report-sha256'", "'report-sha384'", "'report-sha512'"]);
