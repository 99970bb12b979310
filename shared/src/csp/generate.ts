// Policy generation: a crawl artifact in, the spec's cspRules map (directive → sources) out, plus findings
// that explain every risky source we had to add and every resource we could not allow. Pure and
// deterministic: the same artifact always gives the same rules, in the same order.
import * as z from 'zod';
import type { CrawlArtifact, ObservedDirective } from './artifact';
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
import { compareFindings, type PolicyFinding, policyFindingSchema } from './finding';
import { type CspRules, cspRulesSchema, policyBudgetSchema } from './policy';
import { authorityPrefix, hashSource, isIgnoredScheme, originOf, schemeOf, type UrlSource } from './source';

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

/**
 * Where a URL observation's source goes. Element sources land in script-src / style-src rather than
 * script-src-elem / style-src-elem: one directive serves browsers with and without -elem support, and
 * the -elem/-attr split would only be needed if the two differed — they differ only for attribute
 * hashes, which get their own -attr directive. null: a URL under an -attr directive is not meaningful.
 */
const URL_TARGET: Record<ObservedDirective, Directive | null> = {
  'script-src-elem': 'script-src',
  'script-src': 'script-src',
  'script-src-attr': null,
  'style-src-elem': 'style-src',
  'style-src': 'style-src',
  'style-src-attr': null,
  'img-src': 'img-src',
  'font-src': 'font-src',
  'media-src': 'media-src',
  'connect-src': 'connect-src',
  'frame-src': 'frame-src',
  'child-src': 'child-src',
  'worker-src': 'worker-src',
  'manifest-src': 'manifest-src',
  'object-src': 'object-src',
  'form-action': 'form-action',
  'base-uri': 'base-uri',
  'default-src': 'default-src',
};

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

/** Navigation/document targets are not requests: upgrade-insecure-requests does not rewrite them. */
const NOT_UPGRADED = new Set<Directive>(['form-action', 'base-uri']);

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
      add(findings, {
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
    add(findings, {
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
    add(findings, {
      severity: 'medium',
      directive: 'object-src',
      code: 'objects-allowed',
      description:
        "The site embeds <object>/<embed> content, so object-src lists its origins instead of the recommended 'none'. Plugins can run script; replace them (e.g. <img>, <iframe>, <video>) if you can.",
    });
  } else {
    set('object-src', [NONE]);
    if (objects?.size) {
      add(findings, {
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
  add(findings, {
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
    add(findings, {
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
  const fitted = fitToBudget(out, opts.budget, gathered.scriptHashPages);
  for (const f of fitted.findings) add(findings, f);
  return {
    rules: fitted.rules,
    findings: [...findings.values()].sort(compareFindings),
    budget: fitted.budget,
  };
}

/** Where each script hash was seen (for the budget's per-page-only trade). */
export type ScriptHashPages = Map<string, Set<string>>;

/** Findings for inline code that changes on every load (marked by stability.ts). */
function unstableFindings(g: Gathered, findings: Map<string, PolicyFinding>): void {
  const list = (items: Map<string, UnstableItem>) =>
    [...items.values()]
      .slice(0, 5)
      .map(
        (i) =>
          `"${i.sample}" on ${[...i.pages].slice(0, 3).join(', ')}${i.pages.size > 3 ? ` and ${i.pages.size - 3} more` : ''}`,
      )
      .join('; ');
  const styleKinds = [
    ['style-src', g.unstableStyleElements, '<style> element(s)'],
    ['style-src-attr', g.unstableStyleAttributes, 'style= attribute(s)'],
  ] as const;
  for (const [directive, items, what] of styleKinds) {
    if (items.size === 0) continue;
    add(findings, {
      severity: 'low',
      directive,
      code: 'unstable-inline-style',
      value: UNSAFE_INLINE,
      description: `${items.size} inline ${what} change on every load (values measured from the layout), so no hash can match the next visitor's page: ${directive} allows 'unsafe-inline' instead. Inline styles cannot run script, so the risk is low. ${list(items)}.`,
    });
  }
  const elements = new Map([...g.unstableScripts].filter(([, i]) => i.directive !== 'script-src-attr'));
  if (elements.size > 0) {
    add(findings, {
      severity: 'high',
      directive: 'script-src',
      code: 'unstable-inline-script',
      description: `${elements.size} inline script(s) change on every load, so they cannot be allowed by hash and this policy blocks them: ${list(elements)}. Serve the strict policy instead and add nonce="…" (the fresh nonce of that response's header) to each of these <script> elements; 'unsafe-inline' would allow any injected script.`,
    });
  }
  const handlers = new Map([...g.unstableScripts].filter(([, i]) => i.directive === 'script-src-attr'));
  if (handlers.size > 0) {
    add(findings, {
      severity: 'high',
      directive: 'script-src-attr',
      code: 'unstable-inline-handler',
      description: `${handlers.size} inline event handler(s) change on every load, so they cannot be allowed by hash and this policy blocks them: ${list(handlers)}. Move each on…= handler into a script (addEventListener): attribute handlers cannot carry a nonce.`,
    });
  }
}

/** Findings about the crawl itself: pages whose capture did not finish, what needed interaction. */
function captureFindings(artifact: CrawlArtifact, findings: Map<string, PolicyFinding>): void {
  const incomplete = artifact.pages.filter((p) => p.incomplete);
  if (incomplete.length > 0) {
    add(findings, {
      severity: 'medium',
      directive: '',
      code: 'capture-incomplete',
      value: `${incomplete.length}/${artifact.pages.length}`,
      description: `${incomplete.length} of ${artifact.pages.length} pages incomplete, so the policy may miss what they load: ${incomplete
        .slice(0, 3)
        .map((p) => `${p.finalUrl} (${p.incomplete})`)
        .join('; ')}.`,
    });
  }
  let interaction = 0;
  for (const page of artifact.pages) for (const o of page.observations) if (o.interaction) interaction++;
  if (interaction > 0) {
    add(findings, {
      severity: 'info',
      directive: '',
      code: 'needed-interaction',
      value: String(interaction),
      description: `${interaction} resource(s) or inline item(s) appeared only after the crawler acted on pages (opening, hovering, choosing, clicking); they are in the policy.`,
    });
  }
}

interface Gathered {
  /** Emitted directive → deduplicated sources from URL observations and inline element hashes. */
  needs: Map<Directive, Set<string>>;
  /** Hashes of inline <script> bodies and of javascript: URLs (both checked against script-src-elem). */
  inlineScriptHashes: Set<string>;
  javascriptUrlHashes: Set<string>;
  scriptAttrHashes: Set<string>;
  styleAttrHashes: Set<string>;
  evalSeen: number;
  wasmSeen: number;
  observations: number;
  findings: Map<string, PolicyFinding>;
  /** Inline code marked unstable, by directive + shape (never hashed). */
  unstableScripts: Map<string, UnstableItem>;
  unstableStyleElements: Map<string, UnstableItem>;
  unstableStyleAttributes: Map<string, UnstableItem>;
  scriptHashPages: ScriptHashPages;
}

interface UnstableItem {
  directive: string;
  sample: string;
  pages: Set<string>;
}

/** One pass over every observation: resources → sources, with caches so the cost is per origin, not per URL. */
function gather(artifact: CrawlArtifact, self: string, secure: boolean): Gathered {
  const needs = new Map<Directive, Set<string>>();
  const findings = new Map<string, PolicyFinding>();
  const g: Gathered = {
    needs,
    inlineScriptHashes: new Set(),
    javascriptUrlHashes: new Set(),
    scriptAttrHashes: new Set(),
    styleAttrHashes: new Set(),
    evalSeen: 0,
    wasmSeen: 0,
    observations: 0,
    findings,
    unstableScripts: new Map(),
    unstableStyleElements: new Map(),
    unstableStyleAttributes: new Map(),
    scriptHashPages: new Map(),
  };
  const need = (directive: Directive, source: string) => {
    let sources = needs.get(directive);
    if (!sources) {
      sources = new Set();
      needs.set(directive, sources);
    }
    sources.add(source);
  };
  // One cache per upgrade setting: form-action and base-uri are not upgraded, fetches are.
  const originCaches = { upgraded: new Map<string, UrlSource>(), asIs: new Map<string, UrlSource>() };
  const upgradedOrigins = new Set<string>();
  const selfPageCache = new Map<string, boolean>();
  const seenHashes = new Map<string, string | undefined>();

  for (const page of artifact.pages) {
    for (const obs of page.observations) {
      g.observations++;
      switch (obs.type) {
        case 'url': {
          const directive = URL_TARGET[obs.directive];
          if (directive === null) {
            add(findings, {
              severity: 'info',
              directive: obs.directive,
              code: 'unexpected-observation',
              value: obs.url,
              description: `A URL was reported under ${obs.directive}, which governs inline code only; it was not added.`,
            });
            break;
          }
          const scheme = schemeOf(obs.url);
          let result: UrlSource;
          if (scheme === 'data:' || scheme === 'blob:') {
            // Decided by the scheme alone: never parse a data: URL (it can be megabytes of base64).
            result = { kind: 'source', source: scheme };
          } else if (
            scheme !== undefined &&
            scheme !== 'http:' &&
            scheme !== 'https:' &&
            scheme !== 'ws:' &&
            scheme !== 'wss:'
          ) {
            result = { kind: 'ignored', scheme };
          } else {
            const upgrade = secure && !NOT_UPGRADED.has(directive);
            const cache = upgrade ? originCaches.upgraded : originCaches.asIs;
            const key = authorityPrefix(obs.url) ?? obs.url;
            let cached = cache.get(key);
            if (cached === undefined) {
              cached = originOf(key, upgrade);
              cache.set(key, cached);
            }
            result = cached;
          }
          if (result.kind === 'ignored') {
            if (!isIgnoredScheme(result.scheme)) {
              add(findings, {
                severity: 'info',
                directive,
                code: 'unsupported-scheme',
                value: result.scheme,
                description: `Resources with the ${result.scheme} scheme are not allowed: only data: and blob: are written as scheme sources.`,
              });
            }
            break;
          }
          if (result.kind === 'unrepresentable') {
            add(findings, {
              severity: 'medium',
              directive,
              code: 'unrepresentable-source',
              value: authorityPrefix(obs.url) ?? obs.url.slice(0, 200),
              description: `This resource stays blocked: ${result.reason}.`,
            });
            break;
          }
          let source = result.source;
          if (result.origin !== undefined && result.origin === self) {
            // 'self' is the origin of the page the policy is served on; only equal to `self` on its pages.
            let onSelf = selfPageCache.get(obs.page);
            if (onSelf === undefined) {
              onSelf = pageOrigin(obs.page) === self;
              selfPageCache.set(obs.page, onSelf);
            }
            if (onSelf) source = SELF;
          }
          if (result.upgraded && !upgradedOrigins.has(source)) {
            upgradedOrigins.add(source);
            add(findings, {
              severity: 'info',
              directive: 'upgrade-insecure-requests',
              code: 'insecure-upgraded',
              value: source,
              description:
                'Loaded over http: on an https site. upgrade-insecure-requests makes the browser fetch it over https:, so the https: origin is allowed; make sure it is served there.',
            });
          }
          need(directive, source);
          break;
        }
        case 'inline': {
          if (obs.unstable) {
            const into = obs.directive.startsWith('style')
              ? obs.directive === 'style-src-attr'
                ? g.unstableStyleAttributes
                : g.unstableStyleElements
              : g.unstableScripts;
            const key = `${obs.directive} ${obs.shape ?? obs.hash}`;
            let item = into.get(key);
            if (!item) {
              item = { directive: obs.directive, sample: obs.sample ?? '', pages: new Set() };
              into.set(key, item);
            }
            item.pages.add(obs.page);
            break;
          }
          let source = seenHashes.get(obs.hash);
          if (!seenHashes.has(obs.hash)) {
            source = hashSource(obs.hash);
            seenHashes.set(obs.hash, source);
          }
          if (source === undefined) {
            add(findings, {
              severity: 'medium',
              directive: obs.directive,
              code: 'invalid-hash',
              value: obs.hash.slice(0, 120),
              description:
                'The crawler recorded an inline hash that is not a valid CSP hash; that inline code stays blocked.',
            });
            break;
          }
          if (obs.directive.startsWith('script')) {
            let pages = g.scriptHashPages.get(source);
            if (!pages) {
              pages = new Set();
              g.scriptHashPages.set(source, pages);
            }
            pages.add(obs.page);
          }
          if (obs.kind === 'javascript-url') {
            // CSP3 checks javascript: navigations as inline code of type "navigation" against
            // script-src-elem (→ script-src), and a hash counts there only beside 'unsafe-hashes'.
            g.javascriptUrlHashes.add(source);
            g.inlineScriptHashes.add(source);
            need('script-src', source);
            break;
          }
          switch (obs.directive) {
            case 'script-src-elem':
              g.inlineScriptHashes.add(source);
              need('script-src', source);
              break;
            case 'style-src-elem':
              need('style-src', source);
              break;
            case 'script-src-attr':
              g.scriptAttrHashes.add(source);
              break;
            case 'style-src-attr':
              g.styleAttrHashes.add(source);
              break;
          }
          break;
        }
        case 'eval':
          g.evalSeen++;
          break;
        case 'wasm-eval':
          g.wasmSeen++;
          break;
      }
    }
  }

  if (g.wasmSeen > 0) {
    add(findings, {
      severity: 'info',
      directive: 'script-src',
      code: 'wasm-unsafe-eval',
      value: WASM_UNSAFE_EVAL,
      description:
        "WebAssembly is compiled, so script-src allows 'wasm-unsafe-eval' (WebAssembly only, not JavaScript eval).",
    });
  }
  if (g.scriptAttrHashes.size > 0) {
    add(findings, {
      severity: 'low',
      directive: 'script-src-attr',
      code: 'unsafe-hashes',
      value: UNSAFE_HASHES,
      description: `${g.scriptAttrHashes.size} inline event handler(s) or javascript: URL(s) are allowed by hash with 'unsafe-hashes' (not 'unsafe-inline'). Moving them to addEventListener removes the need.`,
    });
  }
  if (g.javascriptUrlHashes.size > 0) {
    add(findings, {
      severity: 'low',
      directive: 'script-src',
      code: 'unsafe-hashes',
      value: UNSAFE_HASHES,
      description: `${g.javascriptUrlHashes.size} javascript: URL(s) are allowed by hash with 'unsafe-hashes' in script-src. Replacing them with event listeners removes the need.`,
    });
  }
  if (g.styleAttrHashes.size > 0) {
    add(findings, {
      severity: 'info',
      directive: 'style-src-attr',
      code: 'unsafe-hashes',
      value: UNSAFE_HASHES,
      description: `${g.styleAttrHashes.size} distinct style= attribute(s) are allowed by hash with 'unsafe-hashes' (not 'unsafe-inline').`,
    });
  }
  const unclassified = needs.get('default-src');
  if (unclassified?.size) {
    add(findings, {
      severity: 'info',
      directive: 'default-src',
      code: 'unclassified-resource',
      description:
        "Some resources were reported under default-src without their kind, so default-src lists their sources instead of 'none'.",
    });
  }
  return g;
}

function add(findings: Map<string, PolicyFinding>, f: Omit<PolicyFinding, 'checker'>) {
  const key = `${f.code}\u0000${f.directive}\u0000${f.value ?? ''}`;
  if (!findings.has(key)) findings.set(key, { ...f, checker: 'generator' });
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

function pageOrigin(page: string): string | undefined {
  try {
    return new URL(page).origin;
  } catch {
    return undefined;
  }
}

/**
 * report-uri value, made safe for a header: absolute http(s) URL or a path. `;` and `,` would end the
 * directive or the policy, so they are percent-encoded (the URL parser leaves them as they are).
 */
export function reportUriSource(uri: string): string {
  const isPath = uri.startsWith('/') && !uri.startsWith('//');
  let parsed: URL;
  try {
    parsed = new URL(uri, isPath ? 'https://placeholder.invalid' : undefined);
  } catch {
    throw new Error(`reportUri is not a valid URL: ${uri}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`reportUri must be an http(s) URL or a path: ${uri}`);
  }
  const text = isPath ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href;
  return text.replace(/;/g, '%3B').replace(/,/g, '%2C');
}
