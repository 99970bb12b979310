// The CDP Fetch domain of one tab. Each document of the analysed origin is paused at the response stage
// and served to the browser with the injected report-only policy (the site's own CSP headers are set
// aside and kept), so the browser itself reports every load and every inline/eval execution. While the
// page is acted on (and until the next page commits), every request is paused at the request stage too:
// main-frame navigations are blocked (their targets become links to crawl) and any request other than
// GET/HEAD is answered by us and never reaches the site.
import { type ServedStyles, servedStyles } from '@csp/shared/csp/served-styles';
import { type SecurityHeader, securityHeadersOf } from '@csp/shared/watch/security-headers';
import type { CDPSession, Protocol } from 'puppeteer-core';
import { withoutFragment } from './url-normalize';

const CSP_HEADERS = new Set(['content-security-policy', 'content-security-policy-report-only']);
/** Headers that describe the wire body; Fetch.getResponseBody hands us the decoded body. */
const BODY_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding']);
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Fetch patterns: documents at the response stage always (to serve our policy); all requests while acting. */
export const DOCUMENT_PATTERNS: Protocol.Fetch.RequestPattern[] = [
  { resourceType: 'Document', requestStage: 'Response' },
];
const ACTING_PATTERNS: Protocol.Fetch.RequestPattern[] = [
  { urlPattern: '*', requestStage: 'Request' },
  ...DOCUMENT_PATTERNS,
];
/** A worker's requests: paused at the request stage, so its writes are answered while acting. */
export const WORKER_PATTERNS: Protocol.Fetch.RequestPattern[] = [
  { urlPattern: '*', requestStage: 'Request' },
];

export interface PausedEvent {
  requestId: string;
  request: { url: string; method: string };
  frameId: string;
  resourceType: string;
  networkId?: string;
  responseStatusCode?: number;
  responseErrorReason?: string;
  responseHeaders?: { name: string; value: string }[];
}

/** A request the page made while being acted on that was answered by the crawler instead of the site. */
export interface AnsweredWrite {
  method: string;
  url: string;
}

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

/**
 * The policy a crawl injects: DENY_ALL_POLICY and the Trusted Types dry run. Report-only, every string a
 * script hands to a DOM XSS sink (innerHTML, eval, a script's src…) is reported with the sink, the start of
 * the value and the script's line, and still goes through: the page works as without it. A page's default
 * policy still sees those strings (its uses report nothing, as when enforced).
 */
export const CAPTURE_POLICY = `${DENY_ALL_POLICY}; require-trusted-types-for 'script'`;

export interface InterceptionOptions {
  /** Origin whose documents get the injected policy; a function because a redirect may settle it late. */
  siteOrigin: () => string;
  /** Policy text injected as Content-Security-Policy-Report-Only. */
  policy: string;
}

/** One tab's interception, and what it saw of the current visit. */
export class RequestInterceptor {
  /** While acting on the page (and until the next page commits), navigations and writes are stopped. */
  acting = false;
  mainFrameId = '';
  /** The page the tab is visiting, and the last target a redirect of its document led to. */
  current = '';
  lastRedirectTarget = '';
  /** When the current page's document was handed to the renderer (0: not yet). */
  fulfilledAt = 0;
  /** The page's document could not be served with the capture policy. */
  unserved = false;
  /** The sites' own policies (Content-Security-Policy headers), by document URL. */
  readonly originalPolicies = new Map<string, string>();
  /** The security headers each served document came with (before ours replaced its CSP), by document URL. */
  readonly securityHeaders = new Map<string, Partial<Record<SecurityHeader, string>>>();
  /**
   * The inline styles each served document's HTML holds, by document URL (no fragment): an inline style
   * the page shows that is not among them was written by a script (classify.ts marks it `inserted`).
   */
  readonly servedStyles = new Map<string, ServedStyles>();
  navigations: string[] = [];
  writes: AnsweredWrite[] = [];
  /** The navigation the crawler itself started (let through while `acting`), by URL then by network id. */
  private ownNavigation: { url: string; networkId?: string } | null = null;

  /** `client` is the page's session: documents are served through it. */
  constructor(
    private readonly client: CDPSession,
    private readonly options: InterceptionOptions,
  ) {}

  /** Documents only while loading: interception of other requests would disable the cache. */
  enable(): Promise<unknown> {
    return this.client.send('Fetch.enable', { patterns: DOCUMENT_PATTERNS });
  }

  /** A new visit starts with a navigation to `url`. */
  startVisit(url: string): void {
    this.originalPolicies.clear();
    this.securityHeaders.clear();
    this.servedStyles.clear();
    this.navigations = [];
    this.writes = [];
    this.current = url;
    this.fulfilledAt = 0;
    this.unserved = false;
    this.lastRedirectTarget = '';
    // Still acting on the previous page until this one commits: let exactly this navigation through.
    this.ownNavigation = { url };
  }

  /** From now until the next page commits, navigations are blocked and writes answered. */
  async startActing(): Promise<void> {
    this.acting = true;
    this.ownNavigation = null;
    await this.client.send('Fetch.enable', { patterns: ACTING_PATTERNS }).catch(() => {});
  }

  /** The main frame committed a new document. */
  committed(frameId: string): void {
    this.mainFrameId = frameId;
    if (this.acting) {
      // A new document: whatever the last page's actions started is gone with the old one.
      this.acting = false;
      this.ownNavigation = null;
      void this.client.send('Fetch.enable', { patterns: DOCUMENT_PATTERNS }).catch(() => {});
    }
  }

  async onPaused(session: CDPSession, event: PausedEvent, isPage: boolean): Promise<void> {
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
      if (this.securityHeaders.size < 100) {
        this.securityHeaders.set(
          event.request.url,
          securityHeadersOf(headers.map((h) => [h.name, h.value] as const)),
        );
      }
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
      const html = body.base64Encoded ? Buffer.from(body.body, 'base64').toString('utf8') : body.body;
      this.servedStyles.set(withoutFragment(event.request.url), servedStyles(html));
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
