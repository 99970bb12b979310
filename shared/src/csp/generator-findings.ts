// The generator's own findings made from what gathering saw (gather.ts): why a keyword is in the policy
// (WebAssembly, 'unsafe-hashes' for style attributes, unclassified resources), inline code that changes on every load, and how
// complete the crawl's capture was. They explain how the policy fits the crawled site; they are shown, not
// scored (grade.ts), and the checks judge what they lead to. Pure.
import type { CrawlArtifact } from './artifact';
import { UNSAFE_HASHES, UNSAFE_INLINE, WASM_UNSAFE_EVAL } from './directives';
import { addGeneratorFinding, type PolicyFinding } from './finding';
import type { Gathered, UnstableItem, UnstableReason } from './gather';

/**
 * Why script-src, style-src-attr or default-src carry what they carry beyond origins. 'unsafe-hashes' in a
 * script directive is not explained here: the unsafe-eval check judges it (once), with its fix.
 */
export function keywordFindings(g: Gathered, findings: Map<string, PolicyFinding>): void {
  if (g.wasmSeen > 0) {
    addGeneratorFinding(findings, {
      severity: 'info',
      directive: 'script-src',
      code: 'wasm-unsafe-eval',
      value: WASM_UNSAFE_EVAL,
      description:
        "WebAssembly is compiled, so script-src allows 'wasm-unsafe-eval' (WebAssembly only, not JavaScript eval).",
    });
  }
  if (g.styleAttrHashes.size > 0) {
    addGeneratorFinding(findings, {
      severity: 'info',
      directive: 'style-src-attr',
      code: 'unsafe-hashes',
      value: UNSAFE_HASHES,
      description: `${g.styleAttrHashes.size} distinct style= attribute(s) are allowed by hash with 'unsafe-hashes' (not 'unsafe-inline').`,
    });
  }
  const unclassified = g.needs.get('default-src');
  if (unclassified?.size) {
    addGeneratorFinding(findings, {
      severity: 'info',
      directive: 'default-src',
      code: 'unclassified-resource',
      description:
        "Some resources were reported under default-src without their kind, so default-src lists their sources instead of 'none'.",
    });
  }
}

/** Why each unstable style cannot be hashed, in the words of its finding. */
const STYLE_REASON: Record<UnstableReason, string> = {
  inserted: "written by a script (not in the server's HTML)",
  changed: 'different when the page was loaded again (another window size and pixel density)',
};

/**
 * Findings for inline code no hash can hold: code that changed when pages were loaded again (stability.ts)
 * and styles a script wrote (the crawler's `inserted`): which items, on which pages, and why.
 */
export function unstableFindings(g: Gathered, findings: Map<string, PolicyFinding>): void {
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
  for (const [directive, all, what] of styleKinds) {
    const engineOnly = new Map([...all].filter(([, i]) => i.engine));
    if (engineOnly.size > 0) {
      addGeneratorFinding(findings, {
        severity: 'low',
        directive,
        code: 'engine-inline-style',
        value: UNSAFE_INLINE,
        description: `${engineOnly.size} inline ${what} only Firefox has (a script's Firefox-only path, or values from Firefox's layout): verifying the policy in Firefox found them refused. The crawl runs in Chromium, so it cannot load them again to show that a hash holds, and a report's 40-character sample gives no hash: ${directive} allows 'unsafe-inline' instead. Inline styles cannot run script, so the risk is low. ${list(engineOnly)}.`,
      });
    }
    const items = new Map([...all].filter(([, i]) => !i.engine));
    if (items.size === 0) continue;
    const reasons = (['inserted', 'changed'] as const)
      .map((why) => [why, [...items.values()].filter((i) => i.why.has(why)).length] as const)
      .filter(([, n]) => n > 0)
      .map(([why, n]) => `${n} ${STYLE_REASON[why]}`)
      .join(', ');
    const listed = [...items.values()]
      .slice(0, 5)
      .map(
        (i) =>
          `"${i.sample}" (${[...i.why].map((w) => STYLE_REASON[w].split(' (')[0]).join(', ')}) on ${[...i.pages].slice(0, 3).join(', ')}${i.pages.size > 3 ? ` and ${i.pages.size - 3} more` : ''}`,
      )
      .join('; ');
    addGeneratorFinding(findings, {
      severity: 'low',
      directive,
      code: 'unstable-inline-style',
      value: UNSAFE_INLINE,
      description: `${items.size} inline ${what} cannot be allowed by hash: ${reasons}. What a script writes (sizes measured from the layout and fonts, rules added as the page changes, a branch for one browser engine) differs in another browser, window or visit, so no hash taken by this crawl can match every visitor's page: ${directive} allows 'unsafe-inline' instead, and lists no hash (a hash beside it would switch 'unsafe-inline' off). Styles in the server's HTML keep their hashes where their directive has no 'unsafe-inline'. Inline styles cannot run script, so the risk is low. ${listed}.`,
    });
  }
  const elements = new Map([...g.unstableScripts].filter(([, i]) => i.directive !== 'script-src-attr'));
  if (elements.size > 0) {
    addGeneratorFinding(findings, {
      severity: 'high',
      directive: 'script-src',
      code: 'unstable-inline-script',
      description: `${elements.size} inline script(s) change on every load, so they cannot be allowed by hash and this policy blocks them: ${list(elements)}. Serve the strict policy instead and add nonce="…" (the fresh nonce of that response's header) to each of these <script> elements; 'unsafe-inline' would allow any injected script.`,
    });
  }
  const handlers = new Map([...g.unstableScripts].filter(([, i]) => i.directive === 'script-src-attr'));
  if (handlers.size > 0) {
    addGeneratorFinding(findings, {
      severity: 'high',
      directive: 'script-src-attr',
      code: 'unstable-inline-handler',
      description: `${handlers.size} inline event handler(s) change on every load, so they cannot be allowed by hash and this policy blocks them: ${list(handlers)}. Move each on…= handler into a script (addEventListener): attribute handlers cannot carry a nonce.`,
    });
  }
}

/** Findings about the crawl itself: pages whose capture did not finish, what needed interaction. */
export function captureFindings(artifact: CrawlArtifact, findings: Map<string, PolicyFinding>): void {
  const incomplete = artifact.pages.filter((p) => p.incomplete);
  if (incomplete.length > 0) {
    addGeneratorFinding(findings, {
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
    addGeneratorFinding(findings, {
      severity: 'info',
      directive: '',
      code: 'needed-interaction',
      value: String(interaction),
      description: `${interaction} resource(s) or inline item(s) appeared only after the crawler acted on pages (opening, hovering, choosing, clicking); they are in the policy.`,
    });
  }
}
