// Which engine versions a policy is meant for: for each engine, the first version that honours everything
// the policy relies on (engine table rows), and the rows that set it. A directive or keyword counts only
// when an older engine would break the page without it: a -elem directive whose sources the plain
// directive also holds (the fallback the generator writes) costs nothing, 'strict-dynamic' beside its
// https:/'unsafe-inline' fallback costs nothing, and protections an older engine merely lacks (Trusted
// Types) never count. Pure.
import * as z from 'zod';
import { DIRECTIVE_TABLE, type Directive, isDirective, NONE, REPORT_SAMPLE } from '../directives';
import type { CspRules } from '../policy';
import {
  compareVersions,
  ENGINE_FEATURES,
  ENGINE_NAMES,
  ENGINE_TABLE,
  ENGINES,
  type EngineFeature,
  engineSchema,
} from './table';

/**
 * Rows every generated policy relies on (base-uri, form-action, frame-ancestors, object-src: CSP Level 2).
 * Chromium 40, Firefox 36, Safari 10 (browser-compat-data .base-uri, .form-action, .frame-ancestors).
 */
const BASELINE: Record<(typeof ENGINES)[number], string> = { chromium: '40', firefox: '36', safari: '10' };

export const policyEngineSchema = z.object({
  engine: engineSchema,
  name: z.string(),
  /** First version that honours the whole policy as written. */
  minVersion: z.string(),
  /** Engine table rows that raised minVersion above the CSP Level 2 baseline, highest first. */
  because: z.array(z.enum(ENGINE_FEATURES)),
});
export type PolicyEngine = z.infer<typeof policyEngineSchema>;

function sourcesOf(rules: CspRules, directive: Directive): string[] | undefined {
  return Object.hasOwn(rules, directive) ? rules[directive] : undefined;
}

/** The sources an engine reads instead of `directive` when it does not know it: the next set fallback. */
export function fallbackSources(rules: CspRules, directive: Directive): string[] | undefined {
  for (const d of DIRECTIVE_TABLE[directive].fallbacks as readonly Directive[]) {
    const s = sourcesOf(rules, d);
    if (s) return s;
  }
  return undefined;
}

/**
 * True when an engine that ignores `directive` would allow less than the policy means: some source of the
 * directive is missing from what that engine reads instead. A directive of 'none' allows nothing, so
 * ignoring it never breaks a page.
 */
export function reliesOn(rules: CspRules, directive: Directive): boolean {
  const own = sourcesOf(rules, directive);
  if (!own) return false;
  const meaningful = own.filter((s) => s !== REPORT_SAMPLE && s !== NONE);
  if (meaningful.length === 0) return false;
  const instead = new Set(fallbackSources(rules, directive) ?? []);
  return meaningful.some((s) => !instead.has(s));
}

/** The engine table rows a policy relies on (see the file comment). */
export function featuresUsed(rules: CspRules): EngineFeature[] {
  const used = new Set<EngineFeature>();
  const all = Object.entries(rules).filter(([d]) => isDirective(d));
  const has = (keyword: string) => all.some(([, sources]) => sources.includes(keyword));
  for (const d of [
    'script-src-elem',
    'script-src-attr',
    'style-src-elem',
    'style-src-attr',
    'worker-src',
  ] as const) {
    if (reliesOn(rules, d)) used.add(d);
  }
  if (has("'unsafe-hashes'")) used.add('unsafe-hashes');
  const script = sourcesOf(rules, 'script-src') ?? [];
  if (script.includes("'wasm-unsafe-eval'") && !script.includes("'unsafe-eval'"))
    used.add('wasm-unsafe-eval');
  if (
    has("'strict-dynamic'") &&
    !(script.includes("'unsafe-inline'") || script.includes('https:')) &&
    script.includes("'strict-dynamic'")
  ) {
    used.add('strict-dynamic');
  }
  return ENGINE_FEATURES.filter((f) => used.has(f));
}

/** The headers sent beside a policy that engine table rows are about. */
export const INTEGRITY_POLICY_HEADERS = ['Integrity-Policy', 'Integrity-Policy-Report-Only'] as const;

/**
 * Engine table rows of protections the policy (and the headers sent with it) use, which an engine without
 * them simply lacks: Trusted Types, 'report-sha256', Integrity-Policy and its reports. They never raise the
 * minimum version (an older engine loads the page as before); the card names where they apply.
 */
export function protectionsUsed(
  rules: CspRules,
  headers: ReadonlyArray<{ name: string; value: string }> = [],
): EngineFeature[] {
  const used = new Set<EngineFeature>();
  if (Object.hasOwn(rules, 'require-trusted-types-for') || Object.hasOwn(rules, 'trusted-types'))
    used.add('trusted-types');
  const sources = Object.entries(rules).flatMap(([, s]) => s);
  if (sources.some((s) => s.toLowerCase() === "'report-sha256'")) used.add('report-sha256');
  for (const h of headers) {
    if (!(INTEGRITY_POLICY_HEADERS as readonly string[]).includes(h.name)) continue;
    used.add('integrity-policy');
    if (/(^|[\s,])endpoints=\(\s*[^)\s]/.test(h.value)) used.add('integrity-policy-reports');
  }
  // A report-only Trusted Types policy sent as a header of its own.
  if (
    headers.some((h) => /^content-security-policy/i.test(h.name) && /require-trusted-types-for/.test(h.value))
  )
    used.add('trusted-types');
  return ENGINE_FEATURES.filter((f) => used.has(f));
}

/**
 * For each engine, the first version that honours the whole policy (null rows, no version yet, are left
 * out of the minimum and named in `because`), highest requirement first.
 */
export function policyEngines(rules: CspRules): PolicyEngine[] {
  const features = featuresUsed(rules);
  return ENGINES.map((engine) => {
    let minVersion = BASELINE[engine];
    const raising: { feature: EngineFeature; version: string }[] = [];
    for (const feature of features) {
      const since = ENGINE_TABLE[feature].since[engine];
      if (since === null) {
        raising.push({ feature, version: '∞' });
        continue;
      }
      if (compareVersions(since, BASELINE[engine]) > 0) raising.push({ feature, version: since });
      if (compareVersions(since, minVersion) > 0) minVersion = since;
    }
    raising.sort((a, b) =>
      a.version === '∞' ? -1 : b.version === '∞' ? 1 : compareVersions(b.version, a.version),
    );
    return { engine, name: ENGINE_NAMES[engine], minVersion, because: raising.map((r) => r.feature) };
  });
}
