// One Firefox tab of self-verification, over WebDriver BiDi (no CDP in Firefox). What Chromium's capture does
// with the CDP Fetch domain and bindings is done here the BiDi way:
// - the policy is served as Content-Security-Policy-Report-Only by rewriting the headers of the site's
//   documents at the response stage (`network.addIntercept` + `network.continueResponse`; the site's own CSP
//   headers are set aside, as in Chromium),
// - the same instrument script (instrument.ts) runs in every document as a preload script and sends its
//   batches through a function exposed to the page (random name per tab), so violations come from the
//   `securitypolicyviolation` DOM event and inline code is read from the DOM, as in Chromium,
// - while the page is acted on, puppeteer's request interception blocks main-frame navigations and answers
//   every write (nothing but GET/HEAD reaches the site).
// Not seen here, unlike Chromium: requests of workers (BiDi does not report them per page), so a worker's
// own loads are verified in Chromium only.
import { randomBytes } from 'node:crypto';
import type { Observation } from '@csp/shared/csp/artifact';
import type { BrowserContext, HTTPRequest, Page } from 'puppeteer-core';
import { classifyPage, cspHash, inlineShape, SAMPLE_LENGTH } from './classify';
import { type InstrumentItem, instrumentSource, parseInstrumentBatch } from './instrument';
import { DEFAULT_INTERACTION_BUDGET_MS, interactionSource } from './interact';
import { INTERACTION_MARGIN_MS, sleep } from './settle';
import { whileIntercepting } from './while-intercepting';

/** The BiDi connection puppeteer's Firefox browser exposes (not in its public types). */
interface BidiConnection {
  send(method: string, params: object): Promise<{ result: Record<string, unknown> }>;
  on(event: string, handler: (params: never) => void): void;
  off(event: string, handler: (params: never) => void): void;
}

interface BidiHeader {
  name: string;
  value: { type: 'string'; value: string } | { type: 'base64'; value: string };
}

interface ResponseStarted {
  context: string | null;
  isBlocked: boolean;
  intercepts?: string[];
  navigation: string | null;
  request: { request: string; url: string; destination?: string };
  response: { status: number; headers: BidiHeader[] };
}

const CSP_HEADERS = new Set(['content-security-policy', 'content-security-policy-report-only']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const NAVIGATION_TIMEOUT_MS = 20_000;
/** After load (and a scroll): network quiet this long, as Chromium's capture waits. */
const LOAD_QUIET_MS = 100;
/** After acting: longer, so a timer's work is in (an image drawn 300 ms after the click). */
const QUIET_MS = 400;
const QUIET_MAX_MS = 2_500;
const STALL_MS = 1_000;

export interface FirefoxVisit {
  url: string;
  finalUrl: string;
  status: number;
  /** The page could not be loaded (nothing was checked). */
  error?: string;
  /** A step failed: the page was loaded but not every part of it was checked. */
  incomplete?: string;
  /** Violations of the policy we served, as the page reported them. */
  violations: Extract<InstrumentItem, { k: 'violation' }>[];
  /**
   * What the page loaded and ran, as the crawl would have recorded it; inline styles Firefox refused are
   * marked `unstable` and `engine: 'firefox'` (their hash cannot be shown to hold, see markEngineStyles).
   */
  observations: Observation[];
}

export interface FirefoxTabOptions {
  /** Origin whose documents get the policy (other origins' frames keep their own). */
  siteOrigin: string;
  /** Policy text served as Content-Security-Policy-Report-Only. */
  policy: string;
  /** Act on each page after load (ms of budget; 0 turns it off). */
  interactionBudgetMs?: number;
  /** The proxy's secret header on its own answers (a refused or unreachable host). */
  signalHeader?: string;
}

export class FirefoxTab {
  private items: InstrumentItem[] = [];
  private readonly flushName = `__cspVerifyFlush_${randomBytes(6).toString('hex')}`;
  private readonly bindingName = `__cspVerifySend_${randomBytes(6).toString('hex')}`;
  private interceptId = '';
  private contextId = '';
  /** Requests in flight (with when they started) and the last time one started or ended, for quiet(). */
  private readonly inFlight = new Map<HTTPRequest, number>();
  private lastActivity = 0;
  /** The current page's main document response (the last one: redirects come first). */
  private document: { status: number; signal?: string } | null = null;
  /** The current page's main document was handed over with our policy (else nothing it does is reported). */
  private served = false;
  private readonly onResponse = (event: ResponseStarted) => {
    if (event.context === this.contextId && event.navigation !== null) {
      const signal = this.options.signalHeader?.toLowerCase();
      const header = signal ? event.response.headers.find((h) => h.name.toLowerCase() === signal) : undefined;
      this.document = {
        status: event.response.status,
        ...(header?.value.type === 'string' ? { signal: header.value.value } : {}),
      };
    }
    void this.serve(event);
  };

  private constructor(
    readonly page: Page,
    private readonly connection: BidiConnection,
    private readonly options: FirefoxTabOptions,
  ) {}

  /** Opens a tab in `owner` (a verification pass' own browser context). */
  static async open(owner: BrowserContext, options: FirefoxTabOptions): Promise<FirefoxTab> {
    const connection = (owner.browser() as unknown as { connection?: BidiConnection }).connection;
    if (!connection) throw new Error('not a WebDriver BiDi browser');
    const page = await owner.newPage();
    const tab = new FirefoxTab(page, connection, options);
    try {
      await tab.install();
      return tab;
    } catch (error) {
      await tab.close();
      throw error;
    }
  }

  private async install(): Promise<void> {
    const { page, connection } = this;
    page.on('dialog', (dialog) => void dialog.dismiss().catch(() => {}));
    page.on('request', (request) => {
      this.inFlight.set(request, Date.now());
      this.lastActivity = Date.now();
    });
    const ended = (request: HTTPRequest) => {
      this.inFlight.delete(request);
      this.lastActivity = Date.now();
    };
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    // The binding first: the instrument takes it when it starts (and removes it from the page's reach).
    await page.exposeFunction(this.bindingName, (payload: string) => {
      this.items.push(...parseInstrumentBatch(payload).map(withChromiumSample));
    });
    await page.evaluateOnNewDocument(
      instrumentSource({
        binding: this.bindingName,
        flushName: this.flushName,
        policy: this.options.policy,
        reportOnlyOrigin: new URL(this.options.siteOrigin).origin,
      }),
    );
    const site = new URL(this.options.siteOrigin);
    this.contextId = (page.mainFrame() as unknown as { _id: string })._id;
    connection.on('network.responseStarted', this.onResponse);
    const { result } = await connection.send('network.addIntercept', {
      phases: ['responseStarted'],
      contexts: [this.contextId],
      urlPatterns: [
        {
          type: 'pattern',
          protocol: site.protocol.slice(0, -1),
          hostname: site.hostname,
          ...(site.port ? { port: site.port } : {}),
        },
      ],
    });
    this.interceptId = String(result.intercept);
  }

  /** Serves the site's documents with the policy; every other response of the site passes untouched. */
  private async serve(event: ResponseStarted): Promise<void> {
    if (!event.isBlocked || !event.intercepts?.includes(this.interceptId)) return;
    const request = event.request.request;
    const status = event.response.status;
    const isDocument =
      event.navigation !== null ||
      event.request.destination === 'document' ||
      event.request.destination === 'iframe';
    try {
      if (!isDocument || (status >= 300 && status < 400)) {
        await this.connection.send('network.continueResponse', { request });
        return;
      }
      const headers = event.response.headers.filter((h) => !CSP_HEADERS.has(h.name.toLowerCase()));
      headers.push({
        name: 'Content-Security-Policy-Report-Only',
        value: { type: 'string', value: this.options.policy },
      });
      await this.connection.send('network.continueResponse', { request, headers });
      if (event.context === this.contextId && event.navigation !== null) this.served = true;
    } catch {
      await this.connection.send('network.continueResponse', { request }).catch(() => {});
    }
  }

  /** Loads `url` with the policy, lets it settle, acts on it as the crawl did, and collects. */
  async visit(url: string): Promise<FirefoxVisit> {
    this.items = [];
    const problems: string[] = [];
    const base = { url, finalUrl: url, violations: [], observations: [] };
    this.document = null;
    this.served = false;
    this.inFlight.clear();
    // BiDi's own navigate, not page.goto: after a navigation the interaction started and we blocked,
    // puppeteer's goto in Firefox waits for a load it never attributes to the new navigation.
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.connection.send('browsingContext.navigate', { context: this.contextId, url, wait: 'complete' }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`navigation timed out after ${NAVIGATION_TIMEOUT_MS} ms`)),
            NAVIGATION_TIMEOUT_MS,
          );
        }),
      ]);
    } catch (error) {
      const text = error instanceof Error ? error.message.split('\n')[0] : String(error);
      return { ...base, status: this.documentResponse()?.status ?? 0, error: `${url}: ${text}` };
    } finally {
      clearTimeout(timer);
    }
    const response = this.documentResponse();
    const status = response?.status ?? 0;
    if (response?.signal) return { ...base, status: 0, error: decodeURIComponent(response.signal) };
    // A page of the site that went to Firefox without our policy reports nothing: it was not checked.
    if (!this.wasServed() && sameOrigin(this.page.url(), this.options.siteOrigin)) {
      problems.push('the page could not be served with the policy');
    }
    await this.quiet(LOAD_QUIET_MS);
    const scrolled = await this.step(SCROLL_THROUGH, 5_000, 'scrolling through the page', problems);
    if (typeof scrolled === 'number' && scrolled > 0) await this.quiet(LOAD_QUIET_MS);
    const budget = this.options.interactionBudgetMs ?? DEFAULT_INTERACTION_BUDGET_MS;
    if (budget > 0) await this.act(budget, problems);
    const flushed = await this.step(
      // Resolves once every batch the page sent is in `items` (the instrument waits for the exposed
      // function's answers): nothing is read before it has arrived.
      `(function () { var f = window[${JSON.stringify(this.flushName)}]; return typeof f === 'function' ? f(false).then(function () { return true; }) : false; })()`,
      10_000,
      'collecting what the page did',
      problems,
    );
    if (flushed === false) problems.push('the page never ran the instrument');
    const finalUrl = this.page.url().startsWith('http') ? this.page.url() : url;
    const violations = this.items.filter((i): i is FirefoxVisit['violations'][number] => i.k === 'violation');
    const { observations } = classifyPage({
      page: url,
      siteOrigin: this.options.siteOrigin,
      items: this.items,
      network: [],
    });
    return {
      url,
      finalUrl,
      status,
      violations,
      observations: markEngineStyles(observations, violations, url),
      ...(problems.length > 0 ? { incomplete: problems.join('; ') } : {}),
    };
  }

  /** Set by the response events while navigating (methods, so the compiler does not narrow them away). */
  private documentResponse(): { status: number; signal?: string } | null {
    return this.document;
  }

  private wasServed(): boolean {
    return this.served;
  }

  /** Acts on the page with navigations blocked and writes answered (as the crawl does), then waits for quiet. */
  private async act(budget: number, problems: string[]): Promise<void> {
    const { page } = this;
    const answer = (request: HTTPRequest) => {
      if (request.isInterceptResolutionHandled()) return;
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        void request.abort('aborted').catch(() => {});
      } else if (SAFE_METHODS.has(request.method())) {
        void request.continue().catch(() => {});
      } else {
        void request
          .respond({
            status: 200,
            contentType: 'application/json',
            headers: answerHeaders(page.url()),
            body: '',
          })
          .catch(() => {});
      }
    };
    await whileIntercepting(page, answer, async () => {
      await this.step(
        interactionSource(budget),
        budget + INTERACTION_MARGIN_MS,
        'acting on the page',
        problems,
      );
      await this.quiet(QUIET_MS);
    });
  }

  /**
   * Waits until no request started or ended for `idleMs`, as Chromium's capture waits (settle.ts): a request
   * pending longer than STALL_MS (an EventSource, a long poll) no longer holds it, and QUIET_MAX_MS bounds it.
   */
  private async quiet(idleMs: number): Promise<void> {
    const end = Date.now() + QUIET_MAX_MS;
    while (Date.now() < end) {
      const now = Date.now();
      const busy = [...this.inFlight.values()].some((started) => now - started < STALL_MS);
      if (!busy && now - this.lastActivity >= idleMs) return;
      await sleep(25);
    }
  }

  /** Runs an in-page step with a time limit; what failed or timed out is added to `problems`. */
  private async step(expression: string, ms: number, what: string, problems: string[]): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), ms);
    });
    try {
      const value = await Promise.race([this.page.evaluate(expression), timeout]);
      if (value === 'timeout') problems.push(`${what} timed out after ${ms} ms`);
      return value;
    } catch (error) {
      problems.push(
        `${what} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      );
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.connection.off('network.responseStarted', this.onResponse);
    if (this.interceptId) {
      await this.connection.send('network.removeIntercept', { intercept: this.interceptId }).catch(() => {});
    }
    await this.page.close().catch(() => {});
  }
}

/**
 * Firefox marks a cut sample with '…' after its 40 characters; Chromium does not. Without the mark the
 * sample pairs with the code read from the DOM as the crawl pairs Chromium's (classify.ts).
 */
function withChromiumSample(item: InstrumentItem): InstrumentItem {
  if (item.k !== 'violation' || !item.sample.endsWith('…')) return item;
  return { ...item, sample: item.sample.slice(0, -1) };
}

const SCROLL_THROUGH = `(async function () {
  var steps = 0, y = 0;
  var height = function () { return Math.max(document.documentElement ? document.documentElement.scrollHeight : 0, document.body ? document.body.scrollHeight : 0); };
  while (y + innerHeight < height() && steps < 15) {
    y += innerHeight; scrollTo(0, y); steps++;
    await new Promise(function (r) { requestAnimationFrame(function () { r(); }); });
  }
  return steps;
})()`;

/**
 * Inline styles Firefox refused are styles only Firefox has (a script's Firefox-only path, or values from
 * Firefox's layout): the crawl, in Chromium, never saw them and cannot re-render them to show a hash holds,
 * and a report's 40-character sample gives no hash. Each is marked `unstable` (its directive gets
 * 'unsafe-inline', explained) and `engine: 'firefox'` (the finding says why). One the DOM never showed us
 * is kept from its sample alone. Scripts are never marked: a refused inline script stays refused.
 */
export function markEngineStyles(
  observations: readonly Observation[],
  violations: readonly Extract<InstrumentItem, { k: 'violation' }>[],
  page: string,
): Observation[] {
  const refused = violations.filter((v) => v.blocked === 'inline' && v.directive.startsWith('style-src'));
  const family = (d: string) => (d.endsWith('-attr') ? 'attr' : 'elem');
  const matched = new Set<(typeof refused)[number]>();
  const out = observations.map((o) => {
    if (o.type !== 'inline' || !o.directive.startsWith('style-src')) return o;
    const hits = refused.filter(
      (v) => family(v.directive) === family(o.directive) && (o.sample ?? '').startsWith(v.sample),
    );
    if (hits.length === 0) return o;
    for (const v of hits) matched.add(v);
    return { ...o, unstable: true as const, engine: 'firefox' as const };
  });
  for (const v of refused) {
    if (matched.has(v)) continue;
    const directive = family(v.directive) === 'attr' ? 'style-src-attr' : 'style-src-elem';
    const sample = v.sample.slice(0, SAMPLE_LENGTH);
    out.push({
      type: 'inline',
      directive,
      // Never served (unstable code is not hashed): only what tells this item apart from others.
      hash: cspHash(sample),
      sample,
      shape: inlineShape(sample),
      kind: directive === 'style-src-attr' ? 'attribute' : 'element',
      unstable: true,
      engine: 'firefox',
      page,
    });
  }
  return out;
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** Headers of our answer to a write: CORS-permissive so the page's code goes on as if it had succeeded. */
function answerHeaders(page: string): Record<string, string> {
  let origin = '*';
  try {
    origin = new URL(page).origin;
  } catch {}
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Allow-Methods': '*',
    'Access-Control-Allow-Headers': '*',
    'Cache-Control': 'no-store',
  };
}
