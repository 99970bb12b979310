// Suggestions from violation reports, judged against the domain's latest completed crawl (spec sections
// 4 and 9). A crawl-based product can tell a missed resource from an injection:
//   expected          the crawl saw it: the policy the site sends is older than the latest one
//   new-first-party   the site's own origin, on a page or after an action the crawl did not reach
//   new-third-party   an origin the crawl never saw: review it
//   suspicious-inline inline code or eval that matches nothing the crawl saw there: possibly injected,
//                     never offered for one-click accept
import {
  type Directive,
  effectiveDirective,
  isDirective,
  UNSAFE_EVAL,
  UNSAFE_INLINE,
  WASM_UNSAFE_EVAL,
} from '../csp/directives';
import { countEngines, onlyEngine } from '../csp/engines/user-agent';
import { allowsObservation } from '../csp/match';
import type { CspRules } from '../csp/policy';
import type { ReportSuggestion } from '../schemas/report';
import { groupDirective, isCodeSource, type ReportGroupKey } from './group';
import type { CrawlKnowledge } from './knowledge';
import { isOnSite, siteHost } from './noise';

/** A group with its exact count, and what the stored (possibly sampled) reports of it show. */
export interface ReportGroupEvidence extends ReportGroupKey {
  count: number;
  firstSeen: string;
  lastSeen: string;
  /** Stored reports of the group: page, code sample and user agent, newest first. */
  reports: {
    documentUri: string;
    scriptSample?: string | null | undefined;
    userAgent?: string | null | undefined;
  }[];
}

/** The latest completed crawl of the domain: its allowlist policy and what it saw. */
export interface CrawlBasis {
  rules: CspRules;
  siteOrigin: string;
  /** Absent for crawls stored before knowledge was kept: inline code cannot be matched then. */
  knowledge: CrawlKnowledge | null;
}

const PAGES_SHOWN = 5;
/** Spec section 9: data: and about: are not suggested (data: code is a risk; about: is the browser's). */
const NOT_SUGGESTED = new Set([
  'data:',
  'about:',
  '(none)',
  'self',
  'trusted-types-policy',
  'trusted-types-sink',
]);

/** A directive's sources in a policy; the directive is a report's (attacker) text, so only own keys count. */
function ruleSources(rules: CspRules, directive: string): readonly string[] {
  return Object.hasOwn(rules, directive) ? (rules[directive as Directive] ?? []) : [];
}

function pagesOf(reports: ReportGroupEvidence['reports']): string[] {
  return [...new Set(reports.map((r) => r.documentUri))].slice(0, PAGES_SHOWN);
}

/** Which engines sent the reports, and the one engine if only one did (a miss of that engine alone). */
function enginesOf(reports: ReportGroupEvidence['reports']) {
  const engines = countEngines(reports.map((r) => r.userAgent));
  return { engines, onlyEngine: onlyEngine(engines) };
}

/**
 * The directive to add the source to: the one the latest policy consults for what was reported
 * (script-src for script-src-elem), but never default-src — widening it would widen every fetch kind; the
 * reported directive is then added on its own.
 */
export function targetDirective(reported: string, rules: CspRules): string {
  const directive = groupDirective(reported);
  if (!isDirective(directive)) return directive;
  const found = effectiveDirective(
    directive,
    (d: Directive) => d !== 'default-src' && rules[d] !== undefined,
  );
  return found ?? directive;
}

function sameCode(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a.startsWith(b) || b.startsWith(a)) return true;
  const ta = a.trim();
  const tb = b.trim();
  return ta !== '' && tb !== '' && (ta.startsWith(tb) || tb.startsWith(ta));
}

/** Inline code of the same family (script or style) and kind the crawl saw, by sample, on `page` first. */
function findCode(
  knowledge: CrawlKnowledge,
  directive: string,
  source: string,
  sample: string,
  page: string,
): { hash: string; where: 'page' | 'site' } | null {
  const family = directive.startsWith('style') ? 'style' : 'script';
  const candidates = knowledge.code.filter((c) =>
    source === 'inline'
      ? c.directive !== 'eval' && c.directive.startsWith(family) && sameCode(c.sample, sample)
      : c.directive === 'eval' && (sample === '' || sameCode(c.sample, sample)),
  );
  const onPage = candidates.find((c) => c.pages.includes(page));
  if (onPage) return { hash: onPage.hash, where: 'page' };
  // A page the crawl did not reach can still share its template's code with pages it did reach.
  const crawled = knowledge.pages.includes(page);
  if (!crawled && candidates[0]) return { hash: candidates[0].hash, where: 'site' };
  return null;
}

function codeSuggestions(
  group: ReportGroupEvidence,
  basis: CrawlBasis,
  directive: string,
): ReportSuggestion[] {
  // One suggestion per distinct sample: the same directive can hold the site's code and an injection.
  const bySample = new Map<string, ReportGroupEvidence['reports']>();
  for (const r of group.reports) {
    const key = r.scriptSample ?? '';
    bySample.set(key, [...(bySample.get(key) ?? []), r]);
  }
  if (bySample.size === 0) bySample.set('', []);
  const keyword =
    group.source === 'eval' ? UNSAFE_EVAL : group.source === 'wasm-eval' ? WASM_UNSAFE_EVAL : UNSAFE_INLINE;
  const what =
    group.source === 'inline'
      ? 'Inline code'
      : group.source === 'eval'
        ? 'eval()'
        : 'WebAssembly compilation';
  return [...bySample.entries()].map(([sample, reports]) => {
    const base = {
      directive,
      blocked: group.source,
      count: reports.length || group.count,
      firstSeen: group.firstSeen,
      lastSeen: group.lastSeen,
      pages: pagesOf(reports),
      ...enginesOf(reports),
    };
    if (group.source === 'wasm-eval') {
      return {
        ...base,
        source: keyword,
        class: 'new-first-party' as const,
        reason: `${what} was blocked. 'wasm-unsafe-eval' allows WebAssembly only, not eval(): add it if the site runs WebAssembly.`,
        acceptable: true,
      };
    }
    const quoted = sample ? ` "${sample}"` : '';
    if (!basis.knowledge) {
      return {
        ...base,
        source: keyword,
        class: 'suspicious-inline' as const,
        reason: `${what}${quoted} cannot be compared with the crawl: run a new analysis, then review the reports.`,
        acceptable: false,
      };
    }
    if (sample === '' && group.source === 'inline') {
      return {
        ...base,
        source: keyword,
        class: 'suspicious-inline' as const,
        reason: `${what} was blocked without a sample, so it cannot be matched with what the crawl saw. Add 'report-sample' to ${directive} to receive the first 40 characters.`,
        acceptable: false,
      };
    }
    const pages = base.pages.length ? base.pages : [''];
    const matches = pages.map((p) => findCode(basis.knowledge!, group.directive, group.source, sample, p));
    const found = matches.find((m) => m !== null);
    if (found && matches.every((m) => m !== null)) {
      const source = group.source === 'inline' ? `'${found.hash}'` : UNSAFE_EVAL;
      return {
        ...base,
        source,
        class: 'expected' as const,
        reason:
          found.where === 'page'
            ? `The latest crawl saw this code${quoted} on the same page: the policy your site sends is older than the latest analysis.`
            : `The latest crawl saw this code${quoted} on other pages of the site, not on this one: it comes from a shared template.`,
        acceptable: true,
      };
    }
    return {
      ...base,
      source: keyword,
      class: 'suspicious-inline' as const,
      reason: `${what}${quoted} matches nothing the crawl saw on ${base.pages[0] ?? 'that page'}: it may be injected. Read the page before allowing anything.`,
      acceptable: false,
    };
  });
}

export function suggestFromReports(
  groups: readonly ReportGroupEvidence[],
  basis: CrawlBasis,
): ReportSuggestion[] {
  const site = siteHost(basis.siteOrigin);
  const out: ReportSuggestion[] = [];
  for (const group of groups) {
    if (NOT_SUGGESTED.has(group.source)) continue;
    const directive = targetDirective(group.directive, basis.rules);
    if (isCodeSource(group.source)) {
      out.push(...codeSuggestions(group, basis, directive));
      continue;
    }
    const base = {
      directive,
      source: group.source,
      blocked: group.source,
      count: group.count,
      firstSeen: group.firstSeen,
      lastSeen: group.lastSeen,
      pages: pagesOf(group.reports),
      ...enginesOf(group.reports),
      acceptable: true,
    };
    const reported = groupDirective(group.directive);
    // Without a completed crawl there is no policy to compare with: nothing is "expected".
    const crawled = Object.keys(basis.rules).length > 0;
    const allowed =
      crawled &&
      isDirective(reported) &&
      /^[a-z][a-z0-9+.-]*:\/\//.test(group.source) &&
      allowsObservation(
        basis.rules,
        { type: 'url', directive: reported as never, url: `${group.source}/`, page: basis.siteOrigin },
        basis.siteOrigin,
      );
    const allowedScheme =
      crawled && group.source.endsWith(':') && ruleSources(basis.rules, directive).includes(group.source);
    if (allowed || allowedScheme) {
      out.push({
        ...base,
        class: 'expected',
        reason: `The latest crawl saw ${group.source} for ${reported} and its policy allows it: the policy your site sends is older than the latest analysis. Deploy the latest policy.`,
      });
    } else if (group.source.endsWith(':') ? group.source === 'blob:' : isOnSite(group.source, site)) {
      out.push({
        ...base,
        class: 'new-first-party',
        reason:
          group.source === 'blob:'
            ? `The site created blob: URLs for ${reported} on a page or after an action the crawl did not reach. Safe to add.`
            : `${group.source} is your own site, used on a page or after an action the crawl did not reach. Safe to add.`,
      });
    } else {
      out.push({
        ...base,
        class: 'new-third-party',
        reason: `The crawl never saw ${group.source}. Review it: add it only if your site really uses it.`,
      });
    }
  }
  const order = { 'suspicious-inline': 0, 'new-third-party': 1, 'new-first-party': 2, expected: 3 } as const;
  return out.sort((a, b) => order[a.class] - order[b.class] || b.count - a.count);
}
