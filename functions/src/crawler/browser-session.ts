// One browser session for a phase of an analysis (crawl, re-render, verification): the SSRF proxy, one
// Chromium behind it, the shared-worker watcher, and tabs that capture pages. Every phase opens its tabs
// here, so all of them get the same guard, the same instrument, the same interaction and the same retry
// rule: a page whose capture did not finish is tried once more in a fresh tab with more time.
import type { Browser, BrowserContext } from 'puppeteer-core';
import { closeBrowser, launchBrowser } from './browser';
import { TabCapture, type TabCaptureOptions, type VisitResult } from './capture';
import { observationKey } from './classify';
import { type CheckAddress, createTargetGuard } from './guard';
import { SharedWorkerWatcher } from './network-recorder';
import { type CrawlProxy, startProxy } from './proxy';

export interface BrowserSessionOptions {
  /** Loopback/private targets may be reached (local mode). Off in AWS. */
  allowPrivateTargets: boolean;
  /** Replaces the SSRF address check (tests narrow it; production never sets it). */
  checkAddress?: CheckAddress;
  /** The product's own ports, never reached on this machine (see createTargetGuard). */
  ownPorts?: readonly number[];
  userAgent?: string;
}

/** What a phase sets for its tabs; the session fills in the proxy's parts. */
export type TabOptions = Omit<
  TabCaptureOptions,
  'blocked' | 'unreachable' | 'signalHeader' | 'sharedWorkers'
>;

/** A tab is replaced after this many pages, so a leaky site cannot grow one renderer without bound. */
export const TAB_RECYCLE_PAGES = 40;
/** A retry gets this many times the time limits of the first try. */
const RETRY_PATIENCE = 2;

export class BrowserSession {
  private constructor(
    readonly proxy: CrawlProxy,
    readonly browser: Browser,
    readonly sharedWorkers: SharedWorkerWatcher,
  ) {}

  static async start(options: BrowserSessionOptions): Promise<BrowserSession> {
    const guard = createTargetGuard({
      allowPrivateTargets: options.allowPrivateTargets,
      check: options.checkAddress,
      ownPorts: options.ownPorts,
    });
    const proxy = await startProxy({ guard });
    try {
      const browser = await launchBrowser({ proxyUrl: proxy.url, userAgent: options.userAgent });
      try {
        return new BrowserSession(proxy, browser, await SharedWorkerWatcher.start(browser));
      } catch (error) {
        await closeBrowser(browser);
        throw error;
      }
    } catch (error) {
      await proxy.close();
      throw error;
    }
  }

  /** A browser context with no cookies, cache or storage from the crawl (re-renders compare against it). */
  freshContext(): Promise<BrowserContext> {
    return this.browser.createBrowserContext();
  }

  openTab(options: TabOptions, owner: Browser | BrowserContext = this.browser): Promise<TabCapture> {
    return TabCapture.open(owner, {
      ...options,
      blocked: this.proxy.blocked,
      unreachable: this.proxy.unreachable,
      signalHeader: this.proxy.signalHeader,
      sharedWorkers: this.sharedWorkers,
    });
  }

  /** A worker that visits pages one after another in its own tab (recycled, replaced when broken). */
  tabWorker(options: TabOptions, owner?: Browser | BrowserContext): TabWorker {
    return new TabWorker(() => this.openTab(options, owner));
  }

  async close(): Promise<void> {
    await this.sharedWorkers.close();
    await closeBrowser(this.browser);
    await this.proxy.close();
  }
}

/** Runs `fn` with a session and closes it whatever happens (success, error, timeout). */
export async function withBrowserSession<T>(
  options: BrowserSessionOptions,
  fn: (session: BrowserSession) => Promise<T>,
): Promise<T> {
  const session = await BrowserSession.start(options);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/** A visit's result, with how many tries it took. */
export type CapturedPage = VisitResult & { attempts: number };

export class TabWorker {
  private tab: TabCapture | null = null;
  private visits = 0;

  constructor(private readonly open: () => Promise<TabCapture>) {}

  private async fresh(): Promise<TabCapture> {
    await this.tab?.close();
    this.tab = null;
    this.visits = 0;
    this.tab = await this.open();
    return this.tab;
  }

  /**
   * Captures one page. A capture that broke the tab or did not finish is tried once more in a fresh tab
   * with more time; what both tries saw is kept (each saw real loads), and the page stays `incomplete`
   * only when the second try did not finish either.
   */
  async visit(url: string): Promise<CapturedPage> {
    let tab = this.tab && this.visits < TAB_RECYCLE_PAGES ? this.tab : await this.fresh();
    this.visits += 1;
    const first = await tab.visit(url);
    // A refused or unreachable page fails the same way twice; a timeout or a crash may not.
    const failedToLoad = Boolean(first.error) && first.status === 0 && !first.tabBroken && !first.incomplete;
    if (failedToLoad || (!first.tabBroken && !first.incomplete)) return { ...first, attempts: 1 };
    tab = await this.fresh();
    this.visits = 1;
    const second = await tab.visit(url, { patience: RETRY_PATIENCE });
    if (second.tabBroken) await this.fresh().catch(() => {});
    if (first.tabBroken) return { ...second, attempts: 2 };
    return { ...mergeVisits(first, second), attempts: 2 };
  }

  async close(): Promise<void> {
    await this.tab?.close();
    this.tab = null;
  }
}

/** Two tries of one page: the second's outcome, with the observations and links of both. */
function mergeVisits(first: VisitResult, second: VisitResult): VisitResult {
  if (second.error && second.status === 0) return { ...first, incomplete: first.incomplete ?? second.error };
  const observations = new Map(second.observations.map((o) => [observationKey(o), o]));
  for (const o of first.observations)
    if (!observations.has(observationKey(o))) observations.set(observationKey(o), o);
  return {
    ...second,
    observations: [...observations.values()],
    violations: [...second.violations, ...first.violations],
    trustedTypes: {
      violations: [...second.trustedTypes.violations, ...first.trustedTypes.violations],
      policyNames: [...new Set([...second.trustedTypes.policyNames, ...first.trustedTypes.policyNames])],
    },
    links: [...new Set([...second.links, ...first.links])],
    icons: [...new Set([...second.icons, ...first.icons])],
    navigations: [...new Set([...second.navigations, ...first.navigations])],
    writes: [...second.writes, ...first.writes],
    interactionMs: second.interactionMs + first.interactionMs,
    quietMs: second.quietMs + first.quietMs,
  };
}
