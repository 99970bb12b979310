// Policy generation: a crawl artifact in, the spec's cspRules map (directive → sources) out, plus findings
// that explain every risky source we had to add and every resource we could not allow. The sources come
// from gathering (gather.ts), the explanations from generator-findings.ts; judging the policy is the
// audit's (audit.ts, checks/). Pure and deterministic: the same artifact always gives the same rules, in
// the same order.
import * as z from 'zod';
import type { CrawlArtifact } from './artifact';
import { policyFindingSchema } from './audit-schemas';
import { budgetOptionsSchema, fitToBudget } from './budget';
import {
  DIRECTIVES,
  type Directive,
  NONCE_VALUE_PATTERN,
  NONE,
  REPORT_SAMPLE,
  SELF,
  STRICT_DYNAMIC,
  sortSources,
  UNSAFE_EVAL,
  UNSAFE_HASHES,
  UNSAFE_INLINE,
  WASM_UNSAFE_EVAL,
} from './directives';
import { withEngineFallbacks } from './engines/fallbacks';
import { faviconSources } from './engines/favicon';
import { addGeneratorFinding, compareFindings, type PolicyFinding } from './finding';
import { gather } from './gather';
import { captureFindings, keywordFindings, unstableFindings } from './generator-findings';
import { type CspRules, cspRulesSchema, policyBudgetSchema } from './policy';
import { reportUriSource } from './report-uri';

export const POLICY_MODES = ['allowlist', 'strict'] as const;
export const policyModeSchema = z.enum(POLICY_MODES);
export type PolicyMode = z.infer<typeof policyModeSchema>;

/**
 * Nonce written into strict policies when the caller has none yet. A valid nonce syntactically (so the
 * policy parses and grades), and self-describing: a nonce must be fresh for every response, so a stored
 * policy can only ever hold a stand-in. applyNonce() replaces it.
 */
export const NONCE_PLACEHOLDER = 'REPLACE-WITH-A-FRESH-NONCE-PER-RESPONSE';

export const generateOptionsSchema = z.object({
  mode: policyModeSchema.default('allowlist'),
  /** Nonce value (without `nonce-`), base64/base64url/hex, at least 16 characters. Strict mode only. */
  nonce: z
    .string()
    .regex(NONCE_VALUE_PATTERN, 'nonce must be at least 16 base64 or hex characters')
    .optional(),
  /** Where browsers POST violation reports (absolute http(s) URL or a path). */
  reportUri: z.string().min(1).optional(),
  /** Reporting API group named by `report-to` (the export adds its Reporting-Endpoints header). */
  reportTo: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'reportTo must be a token (letters, digits, - and _)')
    .optional(),
  /** How long the header may be, and for what (see budget.ts). */
  budget: budgetOptionsSchema.optional(),
});
export type GenerateOptions = z.input<typeof generateOptionsSchema>;

export const generatedPolicySchema = z.object({
  rules: cspRulesSchema,
  findings: z.array(policyFindingSchema),
  budget: policyBudgetSchema,
});
export type GeneratedPolicy = z.infer<typeof generatedPolicySchema>;

/** Fetch directives emitted only when something of their kind was seen (else default-src 'none' covers them). */
const OBSERVED_ONLY: readonly Directive[] = [
  'img-src',
  'font-src',
  'connect-src',
  'media-src',
  'frame-src',
  'child-src',
  'worker-src',
  'manifest-src',
];

/**
 * Generate the policy for a crawl.
 *
 * Allowlist mode: 'self' for the site's origin, exact origins for the rest, data:/blob: only where seen,
 * sha256 hashes for inline code ('unsafe-hashes' + hashes for handlers/style attributes, never
 * 'unsafe-inline'), 'unsafe-eval' / 'wasm-unsafe-eval' only when seen, and hardening defaults.
 *
 * default-src is 'none', not 'self': every kind of resource the crawl saw gets its own directive, so
 * default-src only ever decides for kinds the crawl never saw. 'self' there cannot be proved safe from
 * a crawl: it would silently allow same-origin frames, workers, manifests … that no page loads today.
 * 'none' allows nothing unobserved; whatever the crawl missed shows up in violation reports
 * (report-only rollout, self-verification) instead of being allowed unseen.
 *
 * Strict mode: Google's strict CSP shape for scripts — `'nonce-…' 'strict-dynamic'` plus hashes of the
 * inline scripts, with `'unsafe-inline' https:` as the fallback CSP3 browsers ignore — object-src 'none'
 * and base-uri 'none' (or the observed <base> origins). Everything else as in allowlist mode.
 */
export function generatePolicy(artifact: CrawlArtifact, options: GenerateOptions = {}): GeneratedPolicy {
  const opts = generateOptionsSchema.parse(options);
  const self = siteOrigin(artifact.origin);
  const secure = self.startsWith('https:');
  const gathered = gather(artifact, self, secure);
  const { needs, findings } = gathered;
  keywordFindings(gathered, findings);

  const rules = new Map<Directive, Set<string>>();
  const set = (directive: Directive, sources: Iterable<string>) => rules.set(directive, new Set(sources));

  // default-src: 'none' (see above), unless the crawler reported resources it could not classify.
  const unclassified = needs.get('default-src');
  set('default-src', unclassified?.size ? unclassified : [NONE]);

  // Scripts.
  const scriptSources = needs.get('script-src') ?? new Set<string>();
  const scriptKeywords: string[] = [];
  if (gathered.javascriptUrlHashes.size > 0) scriptKeywords.push(UNSAFE_HASHES);
  if (gathered.evalSeen > 0) scriptKeywords.push(UNSAFE_EVAL);
  if (gathered.wasmSeen > 0) scriptKeywords.push(WASM_UNSAFE_EVAL);
  if (opts.mode === 'strict') {
    const nonce = opts.nonce ?? NONCE_PLACEHOLDER;
    if (gathered.unstableScripts.size > 0) {
      addGeneratorFinding(findings, {
        severity: 'info',
        directive: 'script-src',
        code: 'unstable-inline-nonce',
        description: `${gathered.unstableScripts.size} inline script(s) change on every load, so they are not hashed: in strict mode the nonce allows them once every <script> element carries it.`,
      });
    }
    const inlineHashes = [...gathered.inlineScriptHashes];
    // https: (and http: on an http site) and 'unsafe-inline' only serve browsers without
    // 'strict-dynamic' / nonce support; CSP3 browsers drop them (csp_evaluator's effective policy agrees).
    const fallback = secure ? ['https:'] : ['https:', 'http:'];
    set('script-src', [
      `'nonce-${nonce}'`,
      STRICT_DYNAMIC,
      ...inlineHashes,
      UNSAFE_INLINE,
      ...fallback,
      ...scriptKeywords,
      REPORT_SAMPLE,
    ]);
    addGeneratorFinding(findings, {
      severity: opts.nonce ? 'info' : 'medium',
      directive: 'script-src',
      code: opts.nonce ? 'nonce-per-response' : 'nonce-placeholder',
      value: `'nonce-${nonce}'`,
      description: opts.nonce
        ? 'Strict mode: every <script> element needs nonce="…" with a fresh, unguessable nonce for each response; a nonce reused across responses gives no protection.'
        : `Strict mode: replace ${NONCE_PLACEHOLDER} with a fresh random nonce for every response and put the same value in nonce="…" on every <script> element.`,
    });
  } else if (scriptSources.size > 0 || scriptKeywords.length > 0) {
    set('script-src', [...scriptSources, ...scriptKeywords, REPORT_SAMPLE]);
  }
  if (gathered.scriptAttrHashes.size > 0) {
    set('script-src-attr', [UNSAFE_HASHES, ...gathered.scriptAttrHashes, REPORT_SAMPLE]);
  } else if (gathered.javascriptUrlHashes.size > 0) {
    // 'unsafe-hashes' in script-src would let event handlers (which fall back to script-src) run if
    // their text matched a listed hash; no handler was seen, so handlers get a directive of their own.
    set('script-src-attr', [NONE]);
  }

  // Styles. Inline styles that change on every load cannot be hashed: 'unsafe-inline' for their directive
  // (a hash beside it would switch it off, so none are listed there). Styles cannot run script.
  const styleSources = needs.get('style-src');
  if (gathered.unstableStyleElements.size > 0) {
    const urls = [...(styleSources ?? [])].filter((source) => !source.startsWith("'sha"));
    set('style-src', [...urls, UNSAFE_INLINE, REPORT_SAMPLE]);
  } else if (styleSources?.size) set('style-src', [...styleSources, REPORT_SAMPLE]);
  if (gathered.unstableStyleAttributes.size > 0) {
    set('style-src-attr', [UNSAFE_INLINE, REPORT_SAMPLE]);
  } else if (gathered.styleAttrHashes.size > 0) {
    set('style-src-attr', [UNSAFE_HASHES, ...gathered.styleAttrHashes, REPORT_SAMPLE]);
  }
  unstableFindings(gathered, findings);

  for (const directive of OBSERVED_ONLY) {
    const sources = needs.get(directive);
    if (sources?.size) set(directive, sources);
  }
  addFavicons(artifact, self, secure, rules, findings);
  // A child-src observation is a frame or a worker in a browser that reported the CSP2 name. Once
  // frame-src/worker-src exist, child-src is no longer consulted for them, so they must carry it too.
  const childSources = needs.get('child-src');
  if (childSources?.size) {
    for (const d of ['frame-src', 'worker-src'] as const) {
      const target = rules.get(d);
      if (target) for (const s of childSources) target.add(s);
    }
  }

  // object-src: 'none' unless the site really embeds objects (allowlist mode keeps them working).
  const objects = needs.get('object-src');
  if (objects?.size && opts.mode === 'allowlist') {
    set('object-src', objects);
    addGeneratorFinding(findings, {
      severity: 'medium',
      directive: 'object-src',
      code: 'objects-allowed',
      description:
        "The site embeds <object>/<embed> content, so object-src lists its origins instead of the recommended 'none'. Plugins can run script; replace them (e.g. <img>, <iframe>, <video>) if you can.",
    });
  } else {
    set('object-src', [NONE]);
    if (objects?.size) {
      addGeneratorFinding(findings, {
        severity: 'medium',
        directive: 'object-src',
        code: 'objects-blocked',
        description:
          "Strict mode sets object-src 'none', which blocks the <object>/<embed> content the crawl saw. Use allowlist mode or replace those elements.",
      });
    }
  }

  // base-uri. Allowlist mode: 'self' even if no <base> was seen — a <base> on a page the crawl did not
  // reach keeps working, and a same-origin base gives an attacker no script origin they lack already.
  // Strict mode follows Google's recommendation: 'none' unless <base> was seen.
  const bases = needs.get('base-uri');
  if (opts.mode === 'strict') set('base-uri', bases?.size ? bases : [NONE]);
  else set('base-uri', [SELF, ...(bases ?? [])]);

  // form-action does not fall back to default-src, so leaving it out would allow any target. 'self'
  // always (a same-origin form on an uncrawled page keeps working) plus the observed targets.
  set('form-action', [SELF, ...(needs.get('form-action') ?? [])]);

  // frame-ancestors cannot be observed by crawling (who embeds us happens elsewhere): same-origin only.
  set('frame-ancestors', [SELF]);
  addGeneratorFinding(findings, {
    severity: 'info',
    directive: 'frame-ancestors',
    code: 'frame-ancestors-self',
    value: SELF,
    description:
      "frame-ancestors 'self' stops other sites from framing your pages (clickjacking). If partners embed your pages, add their origins.",
  });

  if (secure) set('upgrade-insecure-requests', []);
  if (opts.reportUri !== undefined) set('report-uri', [reportUriSource(opts.reportUri)]);
  if (opts.reportTo !== undefined) set('report-to', [opts.reportTo]);

  if (artifact.pages.length === 0 || gathered.observations === 0) {
    addGeneratorFinding(findings, {
      severity: 'medium',
      directive: '',
      code: 'nothing-observed',
      description:
        'The crawl recorded no resources, so the policy allows nothing but the hardening defaults. Check the crawl errors before deploying it.',
    });
  }

  captureFindings(artifact, findings);

  const out: CspRules = {};
  for (const directive of DIRECTIVES) {
    const sources = rules.get(directive);
    if (sources) out[directive] = sortSources(sources);
  }
  const fitted = fitToBudget(withEngineFallbacks(out), opts.budget, gathered.scriptHashPages);
  for (const f of fitted.findings) addGeneratorFinding(findings, f);
  return {
    rules: fitted.rules,
    findings: [...findings.values()].sort(compareFindings),
    budget: fitted.budget,
  };
}

/** The favicons the site serves, in img-src (engines/favicon.ts says why), each explained once. */
function addFavicons(
  artifact: CrawlArtifact,
  self: string,
  secure: boolean,
  rules: Map<Directive, Set<string>>,
  findings: Map<string, PolicyFinding>,
): void {
  for (const source of faviconSources(artifact, self, secure)) {
    let img = rules.get('img-src');
    if (!img) {
      img = new Set();
      rules.set('img-src', img);
    }
    if (img.has(source)) continue;
    img.add(source);
    addGeneratorFinding(findings, {
      severity: 'info',
      directive: 'img-src',
      code: 'favicon-allowed',
      value: source,
      description: `The site serves a favicon from ${source}. Firefox and Safari check favicons against img-src on every page (Chromium, which crawled, does not), so it is allowed here.`,
    });
  }
}

function siteOrigin(origin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new Error(`artifact.origin is not a URL: ${origin}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`artifact.origin must be http(s): ${origin}`);
  }
  return parsed.origin;
}
