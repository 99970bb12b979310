// Captures what one browser tab loads and runs, page after page (Lighthouse's "gatherer"). Each document of
// the analysed origin is served to the browser with an injected report-only policy (via the CDP Fetch
// domain at the response stage — the site's own CSP headers are set aside and kept), so the browser
// itself reports and classifies every load and every inline/eval execution. CDP Network events, with
// auto-attach to workers, complete it: worker requests are governed by the worker's own policy and raise
// no violation in the page. The tab is reused between pages (a new tab costs more than a navigation).
import { randomBytes } from 'node:crypto';
import type { Observation } from '@csp/shared/csp/artifact';
import type { Browser, CDPSession, Page } from 'puppeteer-core';
import { classifyPage, type NetworkRecord } from './classify';
import { type InstrumentItem, instrumentBatchSchema, instrumentSource } from './instrument';
import { BLOCKED_HEADER } from './proxy';

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
  observations: Observation[];
  /** Raw violations of the injected policy (verification counts these). */
  violations: InstrumentItem[];
  links: string[];
  originalPolicy?: string;
  unmatchedInline: string[];
}

export interface TabCaptureOptions {
  /** Origin whose documents get the injected policy; a function because a redirect may settle it late. */
  siteOrigin: () => string;
  /** Policy text injected as Content-Security-Policy-Report-Only. */
  policy: string;
  /** Refusals of the SSRF proxy, by host (to name why a navigation failed). */
  blocked?: Map<string, string>;
  /** Shared-worker requests, handed to whichever page collects next. */
  sharedWorkers?: SharedWorkerWatcher;
  settle?: Partial<SettleOptions>;
}

/** A fulfilled document not committed after this long means the renderer is gone (see stalledCommit). */
const COMMIT_TIMEOUT_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface PausedEvent {
  requestId: string;
  request: { url: string };
  responseStatusCode?: number;
  responseHeaders?: { name: string; value: string }[];
}
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

  static async open(browser: Browser, options: TabCaptureOptions): Promise<TabCapture> {
    const page = await browser.newPage();
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
    client.on('Fetch.requestPaused', (event: PausedEvent) => void this.onDocumentResponse(event));
    client.on('Runtime.bindingCalled', (event: { name: string; payload: string }) => {
      if (event.name === this.bindingName) this.onBatch(event.payload);
    });
    this.watchNetwork(client, 'page', null);
    client.on('Page.frameNavigated', (event: { frame: { parentId?: string; url: string } }) => {
      if (!event.frame.parentId) this.committed = true;
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
      // Documents only: interception of other requests would disable the cache and miss workers' loads.
      client.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] }),
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
    }
    await startRecording(child, type, true);
  }

  private current = '';
  private lastRedirectTarget = '';

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
      await client.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {});
    }
  }

  private async evaluate<T>(expression: string, timeoutMs: number): Promise<T | undefined> {
    const call = this.client
      .send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true })
      .then((r) => r.result.value as T)
      .catch(() => undefined);
    return Promise.race([call, sleep(timeoutMs).then(() => undefined)]);
  }

  private async waitForIdle(maxMs: number): Promise<void> {
    const end = Date.now() + maxMs;
    while (Date.now() < end) {
      const now = Date.now();
      const quiet = now - this.lastActivity;
      let pending = 0;
      // A request without an answer for a while is a slow one (or a worker script whose response only its
      // worker sees): what it leads to is not waited for.
      for (const startedAt of this.inflight.values()) if (now - startedAt < this.settle.stallMs) pending++;
      if (pending === 0 && quiet >= this.settle.idleMs) return;
      await sleep(Math.min(25, Math.max(5, this.settle.idleMs - quiet)));
    }
  }

  /** Navigates to `url`, lets it settle (load, network idle, scroll through, idle again) and collects. */
  async visit(url: string): Promise<VisitResult> {
    this.items = [];
    this.network = [];
    this.inflight.clear();
    this.originalPolicies.clear();
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
    };
    let status = 0;
    let finalUrl = url;
    this.fulfilledAt = 0;
    this.committed = false;
    this.lastRedirectTarget = '';
    this.navigating = true;
    try {
      const response = await Promise.race([
        this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: this.settle.navigationTimeoutMs }),
        this.stalledCommit(),
      ]);
      if (response) {
        status = response.status();
        finalUrl = response.url();
        base.contentType = response.headers()['content-type'] ?? '';
        const refusal = response.headers()[BLOCKED_HEADER];
        if (refusal) return { ...base, status, finalUrl, error: decodeURIComponent(refusal) };
      }
    } catch (error) {
      return { ...base, status, finalUrl, ...this.describeFailure(url, error) };
    } finally {
      this.navigating = false;
    }
    await this.evaluate(
      `document.readyState === 'complete' || new Promise(function (r) { addEventListener('load', function () { r(true); }, { once: true }); })`,
      this.settle.loadTimeoutMs,
    );
    await this.waitForIdle(this.settle.idleMaxMs);
    // Lazy images and frames load when scrolled into view.
    const scrolled = await this.evaluate<number>(
      `(async function () {
        var steps = 0, y = 0;
        var height = function () { return Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0); };
        while (y + innerHeight < height() && steps < 15) {
          y += innerHeight; scrollTo(0, y); steps++;
          await new Promise(function (r) { requestAnimationFrame(function () { r(); }); });
        }
        return steps;
      })()`,
      1_500,
    );
    if (scrolled) {
      await sleep(30);
      await this.waitForIdle(this.settle.idleMaxMs);
    }
    const links =
      (await this.evaluate<string[]>(
        `(function () { var f = window[${JSON.stringify(this.flushName)}]; return typeof f === 'function' ? f(true) : []; })()`,
        5_000,
      )) ?? [];
    if (this.crashed)
      return { ...base, status, finalUrl, error: `${url}: the page crashed`, tabBroken: true };
    const currentUrl = this.page.url();
    if (currentUrl.startsWith('http')) finalUrl = currentUrl;
    if (this.options.sharedWorkers) this.network.push(...this.options.sharedWorkers.drain());
    const classified = classifyPage({
      page: url,
      siteOrigin: this.options.siteOrigin(),
      items: this.items,
      network: this.network,
    });
    return {
      url,
      finalUrl,
      status,
      contentType: base.contentType,
      observations: classified.observations,
      violations: this.items.filter((i) => i.k === 'violation'),
      links: links.filter((l) => typeof l === 'string'),
      originalPolicy: this.originalPolicies.get(finalUrl) ?? this.originalPolicies.get(url),
      unmatchedInline: classified.unmatchedInline,
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

  private describeFailure(url: string, error: unknown): { error: string; tabBroken?: boolean } {
    const message = error instanceof Error ? error.message : String(error);
    let host = '';
    try {
      host = new URL(url).hostname;
    } catch {}
    const refusal = this.options.blocked?.get(host);
    if (refusal) return { error: refusal };
    if (/timeout/i.test(message))
      return { error: `${url}: timed out after ${this.settle.navigationTimeoutMs} ms` };
    if (this.crashed || /crash|Target closed|Session closed|detached/i.test(message)) {
      return { error: `${url}: the page crashed`, tabBroken: true };
    }
    const net = /net::ERR_[A-Z_]+/.exec(message);
    return { error: `${url}: ${net ? net[0] : message.split('\n')[0]}` };
  }

  async close(): Promise<void> {
    await this.client.detach().catch(() => {});
    await this.page.close().catch(() => {});
  }
}
