// Captures what one browser tab loads and runs, page after page (Lighthouse's "gatherer"). Each document of
// the analysed origin is served to the browser with an injected report-only policy (via the CDP Fetch
// domain at the response stage — the site's own CSP headers are set aside and kept), so the browser
// itself reports and classifies every load and every inline/eval execution. CDP Network events, with
// auto-attach to workers, complete it: worker requests are governed by the worker's own policy and raise
// no violation in the page. The tab is reused between pages (a new tab costs more than a navigation).
//
// After load and scroll the page is acted on (interact.ts). From then until the next page commits, every
// request is paused at the request stage: main-frame navigations are blocked (their targets become links
// to crawl) and any request other than GET/HEAD is answered by us and never reaches the site. Every step
// that can time out says so: a capture that did not finish is `incomplete`, never silently thin.
import { randomBytes } from 'node:crypto';
import type { Observation } from '@csp/shared/csp/artifact';
import type { Browser, BrowserContext, CDPSession, Page, Protocol } from 'puppeteer-core';
import { classifyPage, type NetworkRecord, observationKey } from './classify';
import { type InstrumentItem, instrumentBatchSchema, instrumentSource } from './instrument';
import { DEFAULT_INTERACTION_BUDGET_MS, interactionResultSchema, interactionSource } from './interact';

/**
 * The policy injected while crawling: allows nothing, reports everything. 'report-sample' gives the first
 * 40 characters of inline code, which pairs violations with the code we hash from the DOM.
 */
export const DENY_ALL_POLICY = [
  "default-src 'none'",
  "script-src 'none' 'report-sample'",
  "script-src-elem 'none' 'report-sample'",
  "script-src-attr 'none' 'report-sample'",
  "style-src 'none' 'report-sample'",
  "style-src-elem 'none' 'report-sample'",
  "style-src-attr 'none' 'report-sample'",
  "img-src 'none'",
  "font-src 'none'",
  "media-src 'none'",
  "connect-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "worker-src 'none'",
  "manifest-src 'none'",
  "object-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');

const CSP_HEADERS = new Set(['content-security-policy', 'content-security-policy-report-only']);
/** Headers that describe the wire body; Fetch.getResponseBody hands us the decoded body. */
const BODY_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);
/** Long-lived requests that never end on their own; they must not hold "network idle" back. */
const STREAMING_TYPES = new Set(['WebSocket', 'EventSource']);

export interface SettleOptions {
  /** Navigation (until DOMContentLoaded) may take this long before the page counts as failed. */
  navigationTimeoutMs: number;
  /** Then wait for the load event at most this long. */
  loadTimeoutMs: number;
  /** Network counts as idle after this long without a request in flight. */
  idleMs: number;
  /** Give up waiting for idle after this long (pages that poll never go idle). */
  idleMaxMs: number;
  /** A request unanswered for this long no longer holds idle back. */
  stallMs: number;
}

export const DEFAULT_SETTLE: SettleOptions = {
  navigationTimeoutMs: 20_000,
  loadTimeoutMs: 8_000,
  idleMs: 80,
  idleMaxMs: 2_500,
  stallMs: 1_000,
};

/** In-page steps' time limits. Generous: on a busy machine a step that times out loses observations. */
const SCROLL_TIMEOUT_MS = 5_000;
const COLLECT_TIMEOUT_MS = 10_000;
/** Beyond the interaction budget, for the script to notice it and return. */
const INTERACTION_MARGIN_MS = 3_000;

/** A request the page made while being acted on that was answered by the crawler instead of the site. */
export interface AnsweredWrite {
  method: string;
  url: string;
}

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
  /** Raw violations of the injected policy (verification counts these). */
  violations: InstrumentItem[];
  links: string[];
  originalPolicy?: string;
  unmatchedInline: string[];
  /** Main-frame navigations the interaction triggered, blocked (http(s) targets only). */
  navigations: string[];
  /** Requests other than GET/HEAD the interaction triggered, answered by the crawler. */
  writes: AnsweredWrite[];
  /** Time spent acting on the page (ms). */
  interactionMs: number;
}

/** How a visit behaves: `patience` multiplies every time limit (a retry gets more time). */
export interface VisitOptions {
  patience?: number;
}

export interface TabCaptureOptions {
  /** Origin whose documents get the injected policy; a function because a redirect may settle it late. */
  siteOrigin: () => string;
  /** Policy text injected as Content-Security-Policy-Report-Only. */
  policy: string;
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
}

/** A fulfilled document not committed after this long means the renderer is gone (see stalledCommit). */
const COMMIT_TIMEOUT_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface PausedEvent {
  requestId: string;
  request: { url: string; method: string };
  frameId: string;
  resourceType: string;
  networkId?: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: { name: string; value: string }[];
}

/** Fetch patterns: documents at the response stage always (to serve our policy); all requests while acting. */
const DOCUMENT_PATTERNS: Protocol.Fetch.RequestPattern[] = [
  { resourceType: 'Document', requestStage: 'Response' },
];
const ACTING_PATTERNS: Protocol.Fetch.RequestPattern[] = [
  { urlPattern: '*', requestStage: 'Request' },
  ...DOCUMENT_PATTERNS,
];
const SAFE_METHODS = new Set(['GET', 'HEAD']);

type StepOutcome<T> = { ok: true; value: T } | { ok: false; reason: string };
interface RequestEvent {
  requestId: string;
  type?: string;
  documentURL: string;
  request: { url: string };
}
interface AttachedEvent {
  sessionId: string;
  targetInfo: { type: string; url: string };
}

interface NetworkSink {
  request(id: string, record: NetworkRecord): void;
  done(id: string): void;
  websocket(url: string): void;
}

/** Subscribes to one target's Network events (the page's or a worker's). */
function recordNetwork(
  session: CDPSession,
  context: NetworkRecord['context'],
  workerUrl: string | null,
  sink: NetworkSink,
): void {
  session.on('Network.requestWillBeSent', (event: RequestEvent) => {
    sink.request(`${context}:${event.requestId}`, {
      type: event.type ?? 'Other',
      url: event.request.url,
      context,
      documentUrl: event.documentURL || workerUrl || '',
    });
  });
  const done = (event: { requestId: string }) => sink.done(`${context}:${event.requestId}`);
  // Headers are enough: what a response leads to starts after them, and a body nobody reads (fetch()
  // without .text()) never "finishes".
  session.on('Network.responseReceived', done);
  session.on('Network.loadingFinished', done);
  session.on('Network.loadingFailed', done);
  session.on('Network.webSocketCreated', (event: { url: string }) => sink.websocket(event.url));
}

/**
 * Resumes a freshly auto-attached target after turning on what we record there. The commands are sent
 * before the resume and not awaited one by one: a paused service worker answers Network.enable only once
 * it runs, but commands apply in order, so recording starts before its first request.
 */
async function startRecording(child: CDPSession, type: string, nested: boolean): Promise<void> {
  const commands: Promise<unknown>[] = [];
  if (type === 'worker' || type === 'shared_worker' || type === 'service_worker') {
    commands.push(child.send('Network.enable', { maxPostDataSize: 0 }));
    // Dedicated and shared workers can start nested workers; a service worker cannot (and never answers).
    if (nested && type !== 'service_worker') {
      commands.push(
        child.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
      );
    }
  }
  commands.push(child.send('Runtime.runIfWaitingForDebugger'));
  // The target may be gone already; nothing to record then.
  await Promise.all(commands.map((c) => c.catch(() => undefined)));
}

/**
 * Shared workers belong to no page, so a page's auto-attach never sees them: a browser-level auto-attach
 * does, and their requests go to the next page that collects (any page of the site serves: the policy is
 * the site's).
 */
export class SharedWorkerWatcher {
  private records: NetworkRecord[] = [];
  private constructor(private readonly session: CDPSession) {}

  static async start(browser: Browser): Promise<SharedWorkerWatcher> {
    const session = await browser.target().createCDPSession();
    const watcher = new SharedWorkerWatcher(session);
    session.on('Target.attachedToTarget', (event: AttachedEvent) => {
      const child = session.connection()?.session(event.sessionId);
      if (!child) return;
      recordNetwork(child, 'shared_worker', event.targetInfo.url, {
        request: (_id, record) => watcher.records.push(record),
        done: () => {},
        websocket: (url) =>
          watcher.records.push({
            type: 'WebSocket',
            url,
            context: 'shared_worker',
            documentUrl: event.targetInfo.url,
          }),
      });
      void startRecording(child, event.targetInfo.type, false);
    });
    await session.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: [{ type: 'shared_worker', exclude: false }, { exclude: true }],
    });
    return watcher;
  }

  drain(): NetworkRecord[] {
    const out = this.records;
    this.records = [];
    return out;
  }

  async close(): Promise<void> {
    await this.session.detach().catch(() => {});
  }
}

export class TabCapture {
  private items: InstrumentItem[] = [];
  private network: NetworkRecord[] = [];
  private originalPolicies = new Map<string, string>();
  private inflight = new Map<string, number>();
  private lastActivity = Date.now();
  private crashed = false;
  /** When the current page's document was handed to the renderer, and when its main frame committed. */
  private fulfilledAt = 0;
  private committed = false;
  private navigating = false;
  /** While acting on the page (and until the next page commits), navigations and writes are stopped. */
  private acting = false;
  /** The navigation the crawler itself started (let through while `acting`), by URL then by network id. */
  private ownNavigation: { url: string; networkId?: string } | null = null;
  private mainFrameId = '';
  /** The page's document could not be served with the capture policy. */
  private unserved = false;
  private navigations: string[] = [];
  private writes: AnsweredWrite[] = [];
  private readonly settle: SettleOptions;
  private readonly flushName = `__cspCrawlerFlush_${randomBytes(6).toString('hex')}`;
  private readonly bindingName = `__cspCrawlerSend_${randomBytes(6).toString('hex')}`;

  private constructor(
    readonly page: Page,
    private readonly client: CDPSession,
    private readonly options: TabCaptureOptions,
  ) {
    this.settle = { ...DEFAULT_SETTLE, ...options.settle };
  }

  /** Opens a tab in `owner` (a browser, or a fresh browser context for re-renders). */
  static async open(owner: Browser | BrowserContext, options: TabCaptureOptions): Promise<TabCapture> {
    const page = await owner.newPage();
    try {
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
    const { client, page } = this;
    // Puppeteer's 'error' event is a renderer crash.
    page.on('error', () => {
      this.crashed = true;
    });
    // A dialog the interaction script did not pre-empt (beforeunload, a dialog from a timer) would hold
    // the page: dismiss it.
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => {}));
    client.on('Fetch.requestPaused', (event: PausedEvent) => void this.onPaused(client, event, true));
    client.on('Runtime.bindingCalled', (event: { name: string; payload: string }) => {
      if (event.name === this.bindingName) this.onBatch(event.payload);
    });
    this.watchNetwork(client, 'page', null);
    client.on('Page.frameNavigated', (event: { frame: { id: string; parentId?: string; url: string } }) => {
      if (event.frame.parentId) return;
      this.committed = true;
      this.mainFrameId = event.frame.id;
      if (this.acting) {
        // A new document: whatever the last page's actions started is gone with the old one.
        this.acting = false;
        this.ownNavigation = null;
        void client.send('Fetch.enable', { patterns: DOCUMENT_PATTERNS }).catch(() => {});
      }
    });
    client.on('Network.requestWillBeSent', (event: RequestEvent & { redirectResponse?: unknown }) => {
      if (event.type === 'Document' && event.redirectResponse) this.lastRedirectTarget = event.request.url;
    });
    client.on('Target.attachedToTarget', (event: AttachedEvent) => void this.onAttached(client, event));
    await Promise.all([
      // Page.enable: scripts added on new documents only run for a session with Page enabled.
      client.send('Page.enable'),
      // Runtime.enable: binding calls are only delivered to a session with Runtime enabled.
      client.send('Runtime.enable'),
      client.send('Network.enable', { maxPostDataSize: 0 }),
      // Documents only while loading: interception of other requests would disable the cache.
      client.send('Fetch.enable', { patterns: DOCUMENT_PATTERNS }),
      client.send('Runtime.addBinding', { name: this.bindingName }),
      client.send('Page.addScriptToEvaluateOnNewDocument', {
        source: instrumentSource({
          binding: this.bindingName,
          flushName: this.flushName,
          policy: this.options.policy,
        }),
      }),
      // Workers, service workers and out-of-process frames are separate targets: attach before they run.
      client.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true }),
    ]);
    const tree = (await client.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } };
    this.mainFrameId = tree.frameTree.frame.id;
  }

  private onBatch(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const batch = instrumentBatchSchema.safeParse(parsed);
    if (batch.success) this.items.push(...batch.data);
  }

  private watchNetwork(
    session: CDPSession,
    context: NetworkRecord['context'],
    workerUrl: string | null,
  ): void {
    recordNetwork(session, context, workerUrl, {
      request: (id, record) => {
        this.lastActivity = Date.now();
        this.network.push(record);
        // A worker's own script is requested for a "document" that is the script itself; its response is
        // reported to the worker's target, never here.
        const workerScript =
          context === 'page' && record.documentUrl === record.url && record.type !== 'Document';
        if (!STREAMING_TYPES.has(record.type) && !workerScript) this.inflight.set(id, this.lastActivity);
      },
      done: (id) => {
        this.lastActivity = Date.now();
        this.inflight.delete(id);
      },
      websocket: (url) => {
        this.network.push({ type: 'WebSocket', url, context, documentUrl: workerUrl ?? this.current });
      },
    });
  }

  private async onAttached(parent: CDPSession, event: AttachedEvent): Promise<void> {
    const child = parent.connection()?.session(event.sessionId);
    if (!child) return;
    const type = event.targetInfo.type;
    if (type === 'worker' || type === 'shared_worker' || type === 'service_worker') {
      this.watchNetwork(child, type, event.targetInfo.url);
      child.on('Target.attachedToTarget', (nested: AttachedEvent) => void this.onAttached(child, nested));
      // A worker can send what a click asked it to: its requests are paused too (writes answered while
      // acting). Sent before the worker runs, so none of its requests slips past.
      child.on('Fetch.requestPaused', (paused: PausedEvent) => void this.onPaused(child, paused, false));
      void child
        .send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] })
        .catch(() => {});
    }
    await startRecording(child, type, true);
  }

  private current = '';
  private lastRedirectTarget = '';

  private async onPaused(session: CDPSession, event: PausedEvent, isPage: boolean): Promise<void> {
    const atResponse = event.responseStatusCode !== undefined || event.responseErrorReason !== undefined;
    if (atResponse) {
      await this.onDocumentResponse(event);
      return;
    }
    const { method, url } = event.request;
    try {
      if (this.acting && isPage && event.resourceType === 'Document' && event.frameId === this.mainFrameId) {
        const own = this.ownNavigation;
        if (own && (own.networkId ? own.networkId === event.networkId : own.url === url)) {
          own.networkId ??= event.networkId;
        } else {
          // The page tried to leave (a link, location.href, form.submit()): stay, and crawl the target.
          // A GET target is a page to crawl; a POSTed form is a write (its action is a form-action already).
          if (!SAFE_METHODS.has(method)) this.writes.push({ method, url });
          else if (/^https?:/i.test(url)) this.navigations.push(url);
          await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' });
          return;
        }
      }
      if (this.acting && !SAFE_METHODS.has(method)) {
        this.writes.push({ method, url });
        if (event.resourceType === 'Document') {
          // A frame's form submission: nothing to answer it with that would not navigate the frame.
          await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' });
          return;
        }
        await session.send('Fetch.fulfillRequest', {
          requestId: event.requestId,
          responseCode: method === 'OPTIONS' ? 204 : 200,
          responseHeaders: answerHeaders(this.current),
          body: '',
        });
        return;
      }
      await session.send('Fetch.continueRequest', { requestId: event.requestId });
    } catch {
      await session.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {});
    }
  }

  private async onDocumentResponse(event: PausedEvent): Promise<void> {
    const { client } = this;
    const status = event.responseStatusCode ?? 0;
    let ours = false;
    try {
      ours = new URL(event.request.url).origin === this.options.siteOrigin();
    } catch {}
    try {
      // Redirects and other origins' documents (cross-origin frames) pass untouched: their policy is theirs.
      if (!ours || (status >= 300 && status < 400) || status === 0) {
        await client.send('Fetch.continueRequest', { requestId: event.requestId });
        return;
      }
      const headers = event.responseHeaders ?? [];
      const original = headers
        .filter((h) => h.name.toLowerCase() === 'content-security-policy')
        .map((h) => h.value);
      if (original.length > 0) this.originalPolicies.set(event.request.url, original.join(', '));
      const kept = headers.filter(
        (h) => !CSP_HEADERS.has(h.name.toLowerCase()) && !BODY_HEADERS.has(h.name.toLowerCase()),
      );
      kept.push({ name: 'Content-Security-Policy-Report-Only', value: this.options.policy });
      // Fetch.continueResponse would show the new header in DevTools but Chromium keeps the CSP it parsed
      // from the original response; only a fulfilled response is parsed again.
      const body = (await client.send('Fetch.getResponseBody', { requestId: event.requestId })) as {
        body: string;
        base64Encoded: boolean;
      };
      if (event.request.url === this.current || event.request.url === this.lastRedirectTarget) {
        this.fulfilledAt = Date.now();
      }
      await client.send('Fetch.fulfillRequest', {
        requestId: event.requestId,
        responseCode: status,
        responseHeaders: kept,
        body: body.base64Encoded ? body.body : Buffer.from(body.body, 'utf8').toString('base64'),
      });
    } catch {
      // The document goes to the renderer without our policy: nothing it does will be reported, so its
      // capture cannot be complete (the caller retries it).
      if (event.request.url === this.current || event.request.url === this.lastRedirectTarget) {
        this.unserved = true;
      }
      await client.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {});
    }
  }

  /** Runs an in-page step with a time limit; a timeout or an error is the step's outcome, never hidden. */
  private async step<T>(expression: string, timeoutMs: number, what: string): Promise<StepOutcome<T>> {
    let timer: NodeJS.Timeout | undefined;
    const call = this.client
      .send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })
      .then((r): StepOutcome<T> => {
        if (r.exceptionDetails) {
          const text = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
          return { ok: false, reason: `${what} failed: ${String(text).split('\n')[0]}` };
        }
        return { ok: true, value: r.result.value as T };
      })
      .catch((error: unknown): StepOutcome<T> => {
        const message = error instanceof Error ? error.message : String(error);
        return {
          ok: false,
          reason: /context was destroyed|navigat/i.test(message)
            ? `${what} failed: the page navigated away`
            : `${what} failed: ${message.split('\n')[0]}`,
        };
      });
    const timeout = new Promise<StepOutcome<T>>((resolve) => {
      timer = setTimeout(
        () => resolve({ ok: false, reason: `${what} timed out after ${timeoutMs} ms` }),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([call, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits until no request is in flight for idleMs; false when maxMs passed first (a polling page). */
  private async waitForIdle(maxMs: number): Promise<boolean> {
    const end = Date.now() + maxMs;
    while (Date.now() < end) {
      const now = Date.now();
      const quiet = now - this.lastActivity;
      let pending = 0;
      // A request without an answer for a while is a slow one (or a worker script whose response only its
      // worker sees): what it leads to is not waited for.
      for (const startedAt of this.inflight.values()) if (now - startedAt < this.settle.stallMs) pending++;
      if (pending === 0 && quiet >= this.settle.idleMs) return true;
      await sleep(Math.min(25, Math.max(5, this.settle.idleMs - quiet)));
    }
    return false;
  }

  private flushExpression(withLinks: boolean): string {
    return `(function () { var f = window[${JSON.stringify(this.flushName)}]; return typeof f === 'function' ? f(${withLinks}) : []; })()`;
  }

  /**
   * Navigates to `url`, lets it settle (load, network idle, scroll through, idle again), acts on it (then
   * idle again) and collects. Observations first seen after acting are marked `interaction`.
   */
  async visit(url: string, visitOptions: VisitOptions = {}): Promise<VisitResult> {
    const patience = Math.max(1, visitOptions.patience ?? 1);
    const limit = (ms: number) => Math.round(ms * patience);
    this.items = [];
    this.network = [];
    this.inflight.clear();
    this.originalPolicies.clear();
    this.navigations = [];
    this.writes = [];
    this.current = url;
    this.lastActivity = Date.now();
    const base: Omit<VisitResult, 'status'> = {
      url,
      finalUrl: url,
      contentType: '',
      observations: [],
      violations: [],
      links: [],
      unmatchedInline: [],
      navigations: [],
      writes: [],
      interactionMs: 0,
    };
    let status = 0;
    let finalUrl = url;
    this.fulfilledAt = 0;
    this.committed = false;
    this.unserved = false;
    this.lastRedirectTarget = '';
    this.navigating = true;
    // Still acting on the previous page until this one commits: let exactly this navigation through.
    this.ownNavigation = { url };
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
      return { ...base, status, finalUrl, ...this.describeFailure(url, error) };
    } finally {
      this.navigating = false;
    }
    const problems: string[] = [];
    if (this.unserved) problems.push('the page could not be served with the capture policy');
    const loaded = await this.step<boolean>(
      `document.readyState === 'complete' || new Promise(function (r) { addEventListener('load', function () { r(true); }, { once: true }); })`,
      limit(this.settle.loadTimeoutMs),
      'waiting for the load event',
    );
    if (!loaded.ok) problems.push(loaded.reason);
    await this.waitForIdle(limit(this.settle.idleMaxMs));
    // Lazy images and frames load when scrolled into view.
    const scrolled = await this.step<number>(
      `(async function () {
        var steps = 0, y = 0;
        var height = function () { return Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0); };
        while (y + innerHeight < height() && steps < 15) {
          y += innerHeight; scrollTo(0, y); steps++;
          await new Promise(function (r) { requestAnimationFrame(function () { r(); }); });
        }
        return steps;
      })()`,
      limit(SCROLL_TIMEOUT_MS),
      'scrolling through the page',
    );
    if (!scrolled.ok) problems.push(scrolled.reason);
    if (scrolled.ok && scrolled.value > 0) {
      await sleep(30);
      await this.waitForIdle(limit(this.settle.idleMaxMs));
    }

    let before: { items: number; network: number } | null = null;
    let interactionMs = 0;
    const budget = this.options.interactionBudgetMs ?? DEFAULT_INTERACTION_BUDGET_MS;
    if (budget > 0 && problems.length === 0) {
      const startedAt = Date.now();
      // Everything the load produced is in before acting, so what acting adds can be told apart.
      const drained = await this.step<unknown>(
        this.flushExpression(false),
        limit(COLLECT_TIMEOUT_MS),
        'collecting before acting',
      );
      if (!drained.ok) problems.push(drained.reason);
      before = { items: this.items.length, network: this.network.length };
      this.acting = true;
      this.ownNavigation = null;
      await this.client.send('Fetch.enable', { patterns: ACTING_PATTERNS }).catch(() => {});
      const acted = await this.step<unknown>(
        interactionSource(limit(budget)),
        limit(budget + INTERACTION_MARGIN_MS),
        'acting on the page',
      );
      const parsed = acted.ok ? interactionResultSchema.safeParse(acted.value) : null;
      if (!acted.ok) problems.push(acted.reason);
      else if (parsed?.success) {
        for (const u of parsed.data.opened) if (/^https?:/i.test(u)) this.navigations.push(u);
        if (parsed.data.exhausted) {
          problems.push(
            `acting on the page ran out of its ${limit(budget)} ms after ${parsed.data.actions} actions`,
          );
        }
      }
      // Requests an action started late (timers, animations) hold idle; a page that did nothing is done.
      if (this.lastActivity > startedAt || this.items.length > before.items) {
        await sleep(30);
        await this.waitForIdle(limit(this.settle.idleMaxMs));
      }
      interactionMs = Date.now() - startedAt;
    }

    const collected = await this.step<string[]>(
      this.flushExpression(true),
      limit(COLLECT_TIMEOUT_MS),
      'collecting what the page did',
    );
    if (!collected.ok) problems.push(collected.reason);
    const links = collected.ok && Array.isArray(collected.value) ? collected.value : [];
    if (this.crashed)
      return { ...base, status, finalUrl, error: `${url}: the page crashed`, tabBroken: true };
    const currentUrl = this.page.url();
    if (currentUrl.startsWith('http')) finalUrl = currentUrl;
    if (this.options.sharedWorkers) this.network.push(...this.options.sharedWorkers.drain());
    const siteOrigin = this.options.siteOrigin();
    const classified = classifyPage({ page: url, siteOrigin, items: this.items, network: this.network });
    let observations = classified.observations;
    if (before) {
      const earlier = classifyPage({
        page: url,
        siteOrigin,
        items: this.items.slice(0, before.items),
        network: this.network.slice(0, before.network),
      });
      const seen = new Set(earlier.observations.map(observationKey));
      observations = observations.map((o) =>
        seen.has(observationKey(o)) ? o : { ...o, interaction: true as const },
      );
    }
    return {
      url,
      finalUrl,
      status,
      contentType: base.contentType,
      observations,
      violations: this.items.filter((i) => i.k === 'violation'),
      links: links.filter((l) => typeof l === 'string'),
      originalPolicy: this.originalPolicies.get(finalUrl) ?? this.originalPolicies.get(url),
      unmatchedInline: classified.unmatchedInline,
      navigations: [...new Set(this.navigations)],
      writes: this.writes,
      interactionMs,
      ...(problems.length > 0 ? { incomplete: problems.join('; ') } : {}),
    };
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
      if (this.fulfilledAt > 0 && Date.now() - this.fulfilledAt > COMMIT_TIMEOUT_MS) {
        throw new Error('Target crashed: the navigation never committed');
      }
    }
    return new Promise<never>(() => {});
  }

  private describeFailure(
    url: string,
    error: unknown,
  ): { error: string; tabBroken?: boolean; refused?: boolean; incomplete?: string } {
    const message = error instanceof Error ? error.message : String(error);
    let host = '';
    try {
      host = new URL(url).host;
    } catch {}
    const refusal = this.options.blocked?.get(host) ?? this.options.blocked?.get(host.replace(/:\d+$/, ''));
    if (refusal) return { error: refusal, refused: true };
    const unreachable = this.options.unreachable?.get(host);
    if (unreachable) return { error: `${unreachable} at ${url}` };
    if (/timeout/i.test(message)) {
      // Worth a second try (a busy machine, a slow first byte): the caller retries incomplete captures.
      const error = `${url}: timed out after ${this.settle.navigationTimeoutMs} ms`;
      return { error, incomplete: error };
    }
    if (this.crashed || /crash|Target closed|Session closed|detached/i.test(message)) {
      return { error: `${url}: the page crashed`, tabBroken: true };
    }
    const net = /net::ERR_[A-Z_]+/.exec(message);
    return { error: net ? describeNetError(net[0], url) : `${url}: ${message.split('\n')[0]}` };
  }

  async close(): Promise<void> {
    await this.client.detach().catch(() => {});
    await this.page.close().catch(() => {});
  }
}

/** Chromium's network error codes, in words a site owner recognises. */
const NET_ERRORS: Record<string, string> = {
  'net::ERR_CONNECTION_REFUSED': 'connection refused',
  'net::ERR_CONNECTION_RESET': 'connection reset',
  'net::ERR_CONNECTION_CLOSED': 'connection closed',
  'net::ERR_CONNECTION_TIMED_OUT': 'connection timed out',
  'net::ERR_NAME_NOT_RESOLVED': 'host not found',
  'net::ERR_CERT_AUTHORITY_INVALID': 'untrusted TLS certificate',
  'net::ERR_CERT_COMMON_NAME_INVALID': 'TLS certificate for another name',
  'net::ERR_CERT_DATE_INVALID': 'expired or not yet valid TLS certificate',
  'net::ERR_SSL_PROTOCOL_ERROR': 'TLS handshake failed',
  'net::ERR_TOO_MANY_REDIRECTS': 'too many redirects',
  'net::ERR_EMPTY_RESPONSE': 'empty response',
};

export function describeNetError(code: string, url: string): string {
  const words = NET_ERRORS[code];
  return words ? `${words} at ${url}` : `${url}: ${code}`;
}

/** Headers of our answer to a write: CORS-permissive so the page's code goes on as if it had succeeded. */
function answerHeaders(page: string): { name: string; value: string }[] {
  let origin = '*';
  try {
    origin = new URL(page).origin;
  } catch {}
  return [
    { name: 'Content-Type', value: 'application/json' },
    { name: 'Access-Control-Allow-Origin', value: origin },
    { name: 'Access-Control-Allow-Credentials', value: 'true' },
    { name: 'Access-Control-Allow-Methods', value: '*' },
    { name: 'Access-Control-Allow-Headers', value: '*' },
    { name: 'Cache-Control', value: 'no-store' },
  ];
}
