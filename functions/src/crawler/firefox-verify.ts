// Self-verification in Firefox: the same sample of pages as Chromium's, loaded with the same policy served
// as report-only and acted on the same way, in a second engine (firefox-tab.ts). Sites sniff engines and
// Firefox checks some loads Chromium exempts (its favicon fetch under img-src), so a policy that holds in
// Chromium alone can still break a Firefox visitor's page. One Firefox serves both passes of an analysis
// (it takes seconds to start); it runs behind its own SSRF proxy, like Chromium.
import { VERIFY_SAMPLE_PAGES } from '@csp/shared/analyses/progress-bands';
import type { Browser, BrowserContext } from 'puppeteer-core';
import { closeBrowser } from './browser';
import type { BrowserSessionOptions } from './browser-session';
import { launchFirefox } from './firefox';
import { FirefoxTab } from './firefox-tab';
import { createTargetGuard } from './guard';
import { type CrawlProxy, startProxy } from './proxy';
import { samplePages } from './sample';
import { policyForVerification, tallyViolations, type Verification } from './verify';

/** Firefox tabs at once, as many as Chromium's verification uses (measured: 4 tabs beat 2 on 2 cores). */
const FIREFOX_CONCURRENCY = 4;

export interface FirefoxVerifyOptions {
  pages: string[];
  policy: string;
  siteOrigin: string;
  sampleSize?: number;
  concurrency?: number;
  deadline?: number;
  interactionBudgetMs?: number;
  /** Called after each page (the share of the sample done). */
  onProgress?: (fraction: number) => void;
}

/** Firefox behind its own proxy, kept for every verification pass of one analysis. */
export class FirefoxSession {
  private constructor(
    private readonly proxy: CrawlProxy,
    readonly browser: Browser,
  ) {}

  static async start(
    executablePath: string,
    options: Omit<BrowserSessionOptions, 'userAgent'>,
  ): Promise<FirefoxSession> {
    const guard = createTargetGuard({
      allowPrivateTargets: options.allowPrivateTargets,
      check: options.checkAddress,
      ownPorts: options.ownPorts,
    });
    const proxy = await startProxy({ guard });
    try {
      return new FirefoxSession(proxy, await launchFirefox(executablePath, proxy.url));
    } catch (error) {
      await proxy.close();
      throw error;
    }
  }

  /** "firefox/153.7.0" */
  version(): Promise<string> {
    return this.browser.version();
  }

  /** One pass, in a browser context of its own (no cookie, cache or storage from an earlier pass). */
  async verify(options: FirefoxVerifyOptions): Promise<Verification> {
    const context = await this.browser.createBrowserContext();
    try {
      return await this.verifyIn(context, options);
    } finally {
      await context.close().catch(() => {});
    }
  }

  private async verifyIn(context: BrowserContext, options: FirefoxVerifyOptions): Promise<Verification> {
    const pages = samplePages(options.pages, options.sampleSize ?? VERIFY_SAMPLE_PAGES);
    const result: Verification = {
      pagesChecked: 0,
      violations: 0,
      samples: [],
      blocked: [],
      pagesWithViolations: [],
      unchecked: [],
    };
    const policy = policyForVerification(options.policy);
    const seen = new Set<string>();
    const queue = [...pages];
    let visited = 0;
    let started = 0;
    const worker = async () => {
      const tab = await FirefoxTab.open(context, {
        siteOrigin: options.siteOrigin,
        policy,
        signalHeader: this.proxy.signalHeader,
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
          // A page under way counts half (as Chromium's pass counts it): the bar moves as pages start too.
          started += 1;
          options.onProgress?.((visited + (started - visited) / 2) / pages.length);
          const visit = await tab.visit(url);
          visited += 1;
          options.onProgress?.((visited + (started - visited) / 2) / pages.length);
          if (visit.error || visit.incomplete) {
            // A page we could not really try is not "0 violations".
            result.unchecked.push(url);
            if (visit.error) continue;
          } else result.pagesChecked += 1;
          tallyViolations(
            result,
            seen,
            { url, violations: visit.violations, observations: visit.observations },
            'firefox',
          );
        }
      } finally {
        await tab.close();
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(options.concurrency ?? FIREFOX_CONCURRENCY, pages.length) }, () =>
        worker(),
      ),
    );
    result.violations = seen.size;
    return result;
  }

  async close(): Promise<void> {
    await closeBrowser(this.browser);
    await this.proxy.close();
  }
}

/**
 * One Firefox kept for the whole process (`npm start`): started at once, so no analysis waits seconds for
 * it, and started again if it died. Each verification pass gets a fresh browser context of it.
 */
export class FirefoxKeeper {
  private current: Promise<FirefoxSession> | null = null;
  private checking: Promise<FirefoxSession> | null = null;

  constructor(
    private readonly executablePath: string,
    private readonly options: Omit<BrowserSessionOptions, 'userAgent'>,
    /** Told of each Firefox started and closed (the local runtime notes its pid: firefox-pid-file.ts). */
    private readonly hooks: { started?(browser: Browser): void; closed?(): void } = {},
  ) {}

  /** The running Firefox (started, or started again, when needed). */
  session(): Promise<FirefoxSession> {
    this.checking ??= this.running().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async running(): Promise<FirefoxSession> {
    const current = this.current ? await this.current.catch(() => null) : null;
    if (current?.browser.connected) return current;
    if (current) await current.close().catch(() => {});
    this.current = FirefoxSession.start(this.executablePath, this.options).then((session) => {
      this.hooks.started?.(session.browser);
      return session;
    });
    return this.current;
  }

  async close(): Promise<void> {
    const current = this.current ? await this.current.catch(() => null) : null;
    this.current = null;
    await current?.close();
    this.hooks.closed?.();
  }
}
