// Self-verification: a policy we hand out is one we have tried. A sample of the crawled pages is loaded
// again with the generated policy served as report-only (the same Fetch interception as the crawl) and
// acted on the same way as in the crawl, and every violation of it is counted. The pages that saw
// violations come back with what they loaded, so the analysis can refine the policy once and try again.
import { VERIFY_SAMPLE_PAGES } from '@csp/shared/analyses/progress-bands';
import type { Observation } from '@csp/shared/csp/artifact';
import type { BlockedItem } from '@csp/shared/schemas/analysis';
import { type BrowserSessionOptions, withBrowserSession } from './browser-session';
import type { CheckAddress } from './guard';
import { samplePages } from './sample';
import type { SettleOptions } from './settle';

export interface Verification {
  pagesChecked: number;
  /** Distinct violations seen. */
  violations: number;
  /** A few violations, readable: "script-src-elem https://cdn.example/x.js on https://site/page". */
  samples: string[];
  /** Every distinct violation, structured (what, where). */
  blocked: BlockedItem[];
  /** Pages that saw violations, with everything they loaded and ran (for one refinement round). */
  pagesWithViolations: { url: string; observations: Observation[] }[];
  /** Sampled pages that could not be checked (failed to load, or the capture did not finish). */
  unchecked: string[];
}

export interface VerifyOptions {
  /** Crawled pages (final URLs) to choose from. */
  pages: string[];
  /** Header value of the generated policy. */
  policy: string;
  siteOrigin: string;
  allowPrivateTargets: boolean;
  userAgent?: string;
  /** Pages to check: at least this many, or all when fewer were crawled. */
  sampleSize?: number;
  concurrency?: number;
  settle?: Partial<SettleOptions>;
  checkAddress?: CheckAddress;
  ownPorts?: readonly number[];
  /** Stop starting pages after this epoch ms (the Lambda deadline). */
  deadline?: number;
  /** As in the crawl: act on each page after load (ms of budget; 0 turns it off). */
  interactionBudgetMs?: number;
  /** Called after each page (progress). */
  onProgress?: (fraction: number) => void | Promise<void>;
}

const MAX_SAMPLES = 20;
const MAX_BLOCKED = 100;

/** A violation a verified page raised, in either engine. */
interface SeenViolation {
  directive: string;
  blocked: string;
  sample?: string;
}

/**
 * Adds what one verified page raised to the pass: each distinct violation once (`seen` holds the pass's,
 * across pages), a bounded list of samples and blocked resources, and the page when it raised any.
 */
export function tallyViolations(
  result: Verification,
  seen: Set<string>,
  page: { url: string; violations: readonly SeenViolation[]; observations: Observation[] },
  engine?: 'firefox',
): void {
  let sawViolation = false;
  for (const v of page.violations) {
    const text = `${v.directive} ${v.blocked}${v.sample ? ` "${v.sample}"` : ''} on ${page.url}${engine ? ' in Firefox' : ''}`;
    if (seen.has(text)) continue;
    seen.add(text);
    sawViolation = true;
    if (result.samples.length < MAX_SAMPLES) result.samples.push(text);
    if (result.blocked.length < MAX_BLOCKED) {
      result.blocked.push({
        directive: v.directive,
        blocked: v.blocked || 'inline',
        page: page.url,
        ...(engine ? { engine } : {}),
        ...(v.sample ? { sample: v.sample } : {}),
      });
    }
  }
  if (sawViolation) result.pagesWithViolations.push({ url: page.url, observations: page.observations });
}

/**
 * The policy as the verification serves it: reporting directives dropped, so trying a policy does not send
 * reports to the product's own endpoint (violations are counted in the page instead).
 */
export function policyForVerification(policy: string): string {
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d && !/^(report-uri|report-to)(\s|$)/i.test(d))
    .join('; ');
}

export async function verifyPolicy(options: VerifyOptions): Promise<Verification> {
  const pages = samplePages(options.pages, options.sampleSize ?? VERIFY_SAMPLE_PAGES);
  const result: Verification = {
    pagesChecked: 0,
    violations: 0,
    samples: [],
    blocked: [],
    pagesWithViolations: [],
    unchecked: [],
  };
  if (pages.length === 0) return result;
  const policy = policyForVerification(options.policy);
  const seen = new Set<string>();
  const session: BrowserSessionOptions = {
    allowPrivateTargets: options.allowPrivateTargets,
    checkAddress: options.checkAddress,
    ownPorts: options.ownPorts,
    userAgent: options.userAgent,
  };
  await withBrowserSession(session, async (browser) => {
    const queue = [...pages];
    let done = 0;
    let inFlight = 0;
    // The browser's start counts as half a page, a page being visited as half: the bar moves while pages
    // visited in parallel are under way, not only when they end.
    const report = () => options.onProgress?.((0.5 + done + inFlight / 2) / (pages.length + 0.5));
    await report();
    const worker = async () => {
      const tab = browser.tabWorker({
        siteOrigin: () => options.siteOrigin,
        policy,
        settle: options.settle,
        ...(options.interactionBudgetMs !== undefined
          ? { interactionBudgetMs: options.interactionBudgetMs }
          : {}),
      });
      try {
        for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
          if (options.deadline !== undefined && Date.now() > options.deadline) {
            result.unchecked.push(url, ...queue.splice(0));
            return;
          }
          inFlight += 1;
          await report();
          const visit = await tab.visit(url);
          inFlight -= 1;
          done += 1;
          await report();
          if ((visit.error && visit.status === 0) || visit.incomplete) {
            // Counting a page we could not really try as "0 violations" would overstate the policy.
            result.unchecked.push(url);
            if (visit.error && visit.status === 0) continue;
          } else result.pagesChecked += 1;
          const violations = visit.violations.filter((v) => v.k === 'violation');
          tallyViolations(result, seen, { url, violations, observations: visit.observations });
        }
      } finally {
        await tab.close();
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(options.concurrency ?? 4, pages.length) }, () => worker()),
    );
  });
  result.violations = seen.size;
  return result;
}
