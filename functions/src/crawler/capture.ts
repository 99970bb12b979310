// Captures what one browser tab loads and runs, page after page (Lighthouse's "gatherer"). Each document of
// the analysed origin is served to the browser with an injected report-only policy (request-interception.ts),
// so the browser itself reports and classifies every load and every inline/eval execution. CDP Network
// events, with auto-attach to workers, complete it (network-recorder.ts): worker requests are governed by
// the worker's own policy and raise no violation in the page. The tab is reused between pages (a new tab
// costs more than a navigation).
//
// A visit: navigate, let the page settle (settle.ts: load, network idle, scroll through, idle again), act
// on it (interact.ts; navigations and writes are stopped meanwhile), collect. Every step that can time out
// says so: a capture that did not finish is `incomplete`, never silently thin.
import type { Observation, Viewport } from '@csp/shared/csp/artifact';
import type { PageTrustedTypes } from '@csp/shared/trusted-types/dry-run';
import type { PageWatch } from '@csp/shared/watch/run-snapshot';
import type { Browser, BrowserContext, CDPSession, Page } from 'puppeteer-core';
import { classifyPage, observationKey } from './classify';
import { noteCrash } from './crash-signal';
import { ICON_LINKS_EXPRESSION, iconHrefs } from './favicons';
import { type InstrumentItem, isTrustedTypesViolation } from './instrument';
import { InstrumentChannel } from './instrument-channel';
import { INTEGRITY_SCRIPTS_EXPRESSION, integrityScriptUrls } from './integrity-attributes';
import { DEFAULT_INTERACTION_BUDGET_MS, interactionResultSchema, interactionSource } from './interact';
import {
  type AttachedEvent,
  isWorkerType,
  NetworkRecorder,
  type SharedWorkerWatcher,
  startRecording,
} from './network-recorder';
import {
  type AnsweredWrite,
  type InterceptionOptions,
  type PausedEvent,
  RequestInterceptor,
  WORKER_PATTERNS,
} from './request-interception';
import { ScriptRecorder } from './script-recorder';
import {
  COLLECT_TIMEOUT_MS,
  DEFAULT_SETTLE,
  INTERACTION_MARGIN_MS,
  runStep,
  type SettleOptions,
  settlePage,
  sleep,
  waitForQuiet,
} from './settle';
import { pageTrustedTypes } from './trusted-types-capture';
import { describeFailure } from './visit-failure';

export interface VisitResult {
  url: string;
  finalUrl: string;
  status: number;
  /** The document's Content-Type ('' when unknown). */
  contentType: string;
  /** Set when the page could not be captured (navigation failed, blocked, timed out, crashed). */
  error?: string;
  /** The renderer crashed or the tab died: the caller must open a new tab. */
  tabBroken?: boolean;
  /** The SSRF guard refused the page's host (nothing more is requested from it). */
  refused?: boolean;
  /** A capture step timed out or failed: observations may be missing (the caller retries once). */
  incomplete?: string;
  observations: Observation[];
  /** Raw violations of the injected policy (verification counts these), the Trusted Types dry run's apart. */
  violations: InstrumentItem[];
  /** What the Trusted Types dry run saw on the page (when the policy carries it): sink uses, policy names. */
  trustedTypes: Omit<PageTrustedTypes, 'page'>;
  links: string[];
  /** The page's `<link rel~=icon>` hrefs (favicons.ts). */
  icons: string[];
  originalPolicy?: string;
  unmatchedInline: string[];
  /** Main-frame navigations the interaction triggered, blocked (http(s) targets only). */
  navigations: string[];
  /** Requests other than GET/HEAD the interaction triggered, answered by the crawler. */
  writes: AnsweredWrite[];
  /** Time spent acting on the page (ms). */
  interactionMs: number;
  /** Time spent waiting for the page to be quiet after load, scrolling and acting (ms). */
  quietMs: number;
  /** What the watch keeps of the page: its document's security headers and the scripts it ran. */
  watch?: Omit<PageWatch, 'page'>;
}

/** How a visit behaves: `patience` multiplies every time limit (a retry gets more time). */
export interface VisitOptions {
  patience?: number;
}

export interface TabCaptureOptions extends InterceptionOptions {
  /** Refusals of the SSRF proxy, by host (to name why a navigation failed). */
  blocked?: Map<string, string>;
  /** Why the proxy could not reach a host (connection refused…), by host. */
  unreachable?: Map<string, string>;
  /**
   * The proxy's secret response-header name for its own answers (refusals, unreachable hosts). Secret per
   * proxy, so a crawled site cannot send a header that makes its page look refused by us.
   */
  signalHeader?: string;
  /** Shared-worker requests, handed to whichever page collects next. */
  sharedWorkers?: SharedWorkerWatcher;
  settle?: Partial<SettleOptions>;
  /** Act on each page after load (ms of budget); 0 turns interaction off. */
  interactionBudgetMs?: number;
  /** Record the scripts each page ran with their digests, for the watch (VisitResult.watch). */
  recordScripts?: boolean;
  /** The tab's window when not the browser's default (the stability re-render uses another one). */
  viewport?: Viewport;
}

/** A fulfilled document not committed after this long means the renderer is gone (see stalledCommit). */
const COMMIT_TIMEOUT_MS = 5_000;

export class TabCapture {
  private readonly instrument = new InstrumentChannel();
  private readonly network: NetworkRecorder;
  private readonly interception: RequestInterceptor;
  private readonly scripts = new ScriptRecorder();
  private crashed = false;
  /** Whether the current page's main frame committed (see stalledCommit). */
  private committed = false;
  private navigating = false;
  private readonly settle: SettleOptions;
  private readonly quietExpression = (windowMs: number, maxMs: number) =>
    this.instrument.quietExpression(windowMs, maxMs);

  private constructor(
    readonly page: Page,
    private readonly client: CDPSession,
    private readonly options: TabCaptureOptions,
  ) {
    this.settle = { ...DEFAULT_SETTLE, ...options.settle };
    this.interception = new RequestInterceptor(client, options);
    this.network = new NetworkRecorder(() => this.interception.current);
  }

  /** Opens a tab in `owner` (a browser, or a fresh browser context for re-renders). */
  static async open(owner: Browser | BrowserContext, options: TabCaptureOptions): Promise<TabCapture> {
    const page = await owner.newPage();
    try {
      if (options.viewport) await page.setViewport(options.viewport);
      const client = await page.createCDPSession();
      const tab = new TabCapture(page, client, options);
      await tab.install();
      return tab;
    } catch (error) {
      await page.close().catch(() => {});
      throw error;
    }
  }

  private async install(): Promise<void> {
    const { client, page, interception } = this;
    // Puppeteer's 'error' event is a renderer crash.
    page.on('error', () => {
      this.crashed = true;
      // In-page steps still waiting on this page stop now rather than at their time limits.
      noteCrash(client);
    });
    // A dialog the interaction script did not pre-empt (beforeunload, a dialog from a timer) would hold
    // the page: dismiss it.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => {}));
    client.on('Fetch.requestPaused', (event: PausedEvent) => void interception.onPaused(client, event, true));
    this.instrument.listen(client);
    this.network.watch(client, 'page', null);
    if (this.options.recordScripts) this.scripts.watch(client, 'page', null);
    client.on('Page.frameNavigated', (event: { frame: { id: string; parentId?: string; url: string } }) => {
      if (event.frame.parentId) return;
      this.committed = true;
      interception.committed(event.frame.id);
    });
    client.on(
      'Network.requestWillBeSent',
      (event: { type?: string; request: { url: string }; redirectResponse?: unknown }) => {
        if (event.type === 'Document' && event.redirectResponse) {
          interception.lastRedirectTarget = event.request.url;
        }
      },
    );
    client.on('Target.attachedToTarget', (event: AttachedEvent) => void this.onAttached(client, event));
    await Promise.all([
      // Page.enable: scripts added on new documents only run for a session with Page enabled.
      client.send('Page.enable'),
      // Runtime.enable: binding calls are only delivered to a session with Runtime enabled.
      client.send('Runtime.enable'),
      client.send('Network.enable', { maxPostDataSize: 0 }),
      interception.enable(),
      ...this.instrument.install(client, this.options.policy),
      // Workers, service workers and out-of-process frames are separate targets: attach before they run.
      client.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
    ]);
    const tree = (await client.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
    interception.mainFrameId = tree.frameTree.frame.id;
  }

  private async onAttached(parent: CDPSession, event: AttachedEvent): Promise<void> {
    const child = parent.connection()?.session(event.sessionId);
    if (!child) return;
    const type = event.targetInfo.type;
    if (isWorkerType(type)) {
      this.network.watch(child, type, event.targetInfo.url);
      if (this.options.recordScripts)
        this.scripts.watch(child, `${type}:${event.sessionId}`, event.targetInfo.url);
      child.on('Target.attachedToTarget', (nested: AttachedEvent) => void this.onAttached(child, nested));
      // A worker can send what a click asked it to: its requests are paused too (writes answered while
      // acting). Sent before the worker runs, so none of its requests slips past.
      child.on(
        'Fetch.requestPaused',
        (paused: PausedEvent) => void this.interception.onPaused(child, paused, false),
      );
      void child.send('Fetch.enable', { patterns: WORKER_PATTERNS }).catch(() => {});
    }
    await startRecording(child, type, true);
  }

  /**
   * Navigates to `url`, lets it settle (load, network idle, scroll through, idle again), acts on it (then
   * idle again) and collects. Observations first seen after acting are marked `interaction`.
   */
  async visit(url: string, visitOptions: VisitOptions = {}): Promise<VisitResult> {
    const patience = Math.max(1, visitOptions.patience ?? 1);
    const limit = (ms: number) => Math.round(ms * patience);
    const { interception, network } = this;
    this.instrument.items = [];
    network.reset();
    this.scripts.reset();
    interception.startVisit(url);
    const base: Omit<VisitResult, 'status'> = {
      url,
      finalUrl: url,
      contentType: '',
      observations: [],
      violations: [],
      trustedTypes: { violations: [], policyNames: [] },
      links: [],
      icons: [],
      unmatchedInline: [],
      navigations: [],
      writes: [],
      interactionMs: 0,
      quietMs: 0,
    };
    let status = 0;
    let finalUrl = url;
    this.committed = false;
    this.navigating = true;
    try {
      const response = await Promise.race([
        this.page.goto(url, {
          waitUntil: 'domcontentloaded',
          timeout: limit(this.settle.navigationTimeoutMs),
        }),
        this.stalledCommit(),
      ]);
      if (response) {
        status = response.status();
        finalUrl = response.url();
        base.contentType = response.headers()['content-type'] ?? '';
        const signal = this.options.signalHeader ? response.headers()[this.options.signalHeader] : undefined;
        if (signal) return { ...base, status: 0, finalUrl, error: decodeURIComponent(signal), refused: true };
      }
    } catch (error) {
      const failure = describeFailure(url, error, {
        blocked: this.options.blocked,
        unreachable: this.options.unreachable,
        crashed: this.crashed,
        navigationTimeoutMs: this.settle.navigationTimeoutMs,
      });
      return { ...base, status, finalUrl, ...failure };
    } finally {
      this.navigating = false;
    }
    const problems: string[] = [];
    if (interception.unserved) problems.push('the page could not be served with the capture policy');
    let quietMs = await settlePage(this.client, network, this.settle, this.quietExpression, limit, problems);

    const budget = this.options.interactionBudgetMs ?? DEFAULT_INTERACTION_BUDGET_MS;
    const acted = budget > 0 && problems.length === 0 ? await this.act(limit, budget, problems) : null;
    quietMs += acted?.quietMs ?? 0;

    const collected = await runStep<string[]>(
      this.client,
      this.instrument.flushExpression(true),
      limit(COLLECT_TIMEOUT_MS),
      'collecting what the page did',
    );
    if (!collected.ok) problems.push(collected.reason);
    const links = collected.ok && Array.isArray(collected.value) ? collected.value : [];
    const icons = await runStep<unknown>(
      this.client,
      ICON_LINKS_EXPRESSION,
      limit(COLLECT_TIMEOUT_MS),
      'reading the page icons',
    );
    if (this.crashed)
      return { ...base, status, finalUrl, error: `${url}: the page crashed`, tabBroken: true };
    const currentUrl = this.page.url();
    if (currentUrl.startsWith('http')) finalUrl = currentUrl;
    if (this.options.sharedWorkers) network.records.push(...this.options.sharedWorkers.drain());
    const siteOrigin = this.options.siteOrigin();
    const classified = classifyPage({
      page: url,
      siteOrigin,
      items: this.instrument.items,
      network: network.records,
      served: interception.servedStyles,
    });
    let observations = classified.observations;
    if (acted) {
      const earlier = classifyPage({
        page: url,
        siteOrigin,
        items: this.instrument.items.slice(0, acted.before.items),
        network: network.records.slice(0, acted.before.network),
        served: interception.servedStyles,
      });
      const seen = new Set(earlier.observations.map(observationKey));
      observations = observations.map((o) =>
        seen.has(observationKey(o)) ? o : { ...o, interaction: true as const },
      );
    }
    const reported = observations.flatMap((o) =>
      o.type === 'url' && (o.directive === 'script-src-elem' || o.directive === 'worker-src')
        ? [{ url: o.url, worker: o.directive === 'worker-src' }]
        : [],
    );
    const reportedStylesheets = observations.flatMap((o) =>
      o.type === 'url' && o.directive === 'style-src-elem' ? [o.url] : [],
    );
    const withIntegrity = this.options.recordScripts
      ? await runStep<unknown>(
          this.client,
          INTEGRITY_SCRIPTS_EXPRESSION,
          limit(COLLECT_TIMEOUT_MS),
          'reading the integrity attributes',
        )
      : null;
    const watch = this.options.recordScripts
      ? {
          headers: interception.securityHeaders.get(finalUrl) ?? interception.securityHeaders.get(url) ?? {},
          ...(await this.scripts.collect(
            this.instrument.items,
            reported,
            reportedStylesheets,
            integrityScriptUrls(withIntegrity?.ok ? withIntegrity.value : null),
          )),
        }
      : undefined;
    return {
      url,
      finalUrl,
      status,
      contentType: base.contentType,
      observations,
      ...(watch ? { watch } : {}),
      violations: this.instrument.items.filter((i) => i.k === 'violation' && !isTrustedTypesViolation(i)),
      trustedTypes: pageTrustedTypes(this.instrument.items, siteOrigin),
      links: links.filter((l) => typeof l === 'string'),
      icons: icons.ok ? iconHrefs(icons.value) : [],
      originalPolicy: interception.originalPolicies.get(finalUrl) ?? interception.originalPolicies.get(url),
      unmatchedInline: classified.unmatchedInline,
      navigations: [...new Set(interception.navigations)],
      writes: interception.writes,
      interactionMs: acted?.ms ?? 0,
      quietMs,
      ...(problems.length > 0 ? { incomplete: problems.join('; ') } : {}),
    };
  }

  /**
   * Acts on the settled page within `budget` ms (navigations blocked, writes answered from then on), then
   * lets what the actions started settle. Returns how much had been gathered before acting, so what acting
   * added can be told apart, and the time it took; adds what went wrong to `problems`.
   */
  private async act(
    limit: (ms: number) => number,
    budget: number,
    problems: string[],
  ): Promise<{ before: { items: number; network: number }; ms: number; quietMs: number }> {
    const { interception, network } = this;
    const startedAt = Date.now();
    // Everything the load produced is in before acting, so what acting adds can be told apart.
    const drained = await runStep<unknown>(
      this.client,
      this.instrument.flushExpression(false),
      limit(COLLECT_TIMEOUT_MS),
      'collecting before acting',
    );
    if (!drained.ok) problems.push(drained.reason);
    const before = { items: this.instrument.items.length, network: network.records.length };
    await interception.startActing();
    const acted = await runStep<unknown>(
      this.client,
      interactionSource(limit(budget), { helpers: this.instrument.helpersExpression() }),
      limit(budget + INTERACTION_MARGIN_MS),
      'acting on the page',
    );
    const parsed = acted.ok ? interactionResultSchema.safeParse(acted.value) : null;
    if (!acted.ok) problems.push(acted.reason);
    else if (parsed?.success) {
      for (const u of parsed.data.opened) if (/^https?:/i.test(u)) interception.navigations.push(u);
      if (parsed.data.exhausted) {
        problems.push(
          `acting on the page ran out of its ${limit(budget)} ms after ${parsed.data.actions} actions`,
        );
      }
    }
    // What the last actions started (requests, timers, animations) finishes before collecting. A page
    // that ended quiet with no request since acting started needs no more waiting (most pages).
    const endedQuiet = parsed?.success === true && parsed.data.quiet === true;
    // A navigation the last action started (location.href in a click handler) is in `opened` already: the
    // page script saw it start, so no moment is waited for its request to reach the network.
    const { ms: quietMs } =
      endedQuiet && network.lastActivity < startedAt && network.pending(Date.now(), this.settle.stallMs) === 0
        ? { ms: 0 }
        : await waitForQuiet(
            this.client,
            network,
            this.settle,
            this.quietExpression,
            limit(this.settle.idleMaxMs),
          );
    return { before, ms: Date.now() - startedAt, quietMs };
  }

  /**
   * Chromium occasionally terminates a renderer while it commits a navigation (logged as "bad IPC
   * message"); the tab then waits for a DOMContentLoaded that never comes. A document we handed over that
   * has not committed a few seconds later is that case, not a slow site: the tab is given up at once.
   */
  private async stalledCommit(): Promise<never> {
    while (this.navigating) {
      await sleep(250);
      if (this.committed) break;
      const { fulfilledAt } = this.interception;
      if (fulfilledAt > 0 && Date.now() - fulfilledAt > COMMIT_TIMEOUT_MS) {
        throw new Error('Target crashed: the navigation never committed');
      }
    }
    return new Promise<never>(() => {});
  }

  async close(): Promise<void> {
    await this.client.detach().catch(() => {});
    await this.page.close().catch(() => {});
  }
}
