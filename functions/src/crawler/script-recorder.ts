// What the watch needs of one visit's scripts (PCI DSS 11.6.1: "script contents as received by the browser"):
// every script and worker response the page and its workers received, with the SHA-384 of the body as
// Chromium received it (Network.getResponseBody, in the form Subresource Integrity writes), and the script
// that requested it (the request's initiator stack). Inline code and handlers are hashed from the text the
// instrumentation read. A hostile page decides how many scripts it loads and how large they are: records
// per visit are capped, bodies are read a few at a time, and a body not read in time is left unread.
// External stylesheets are recorded the same way (URL, SHA-384, CORS), apart: Subresource Integrity covers
// them, the script inventory does not.
import { createHash } from 'node:crypto';
import {
  PAGE_SCRIPTS_MAX,
  PAGE_STYLESHEETS_MAX,
  type PageScript,
  type PageStylesheet,
} from '@csp/shared/watch/run-snapshot';
import { WATCH_LIMITS } from '@csp/shared/watch/snapshot';
import type { CDPSession } from 'puppeteer-core';
import { javascriptUrlText } from './classify';
import type { InstrumentItem } from './instrument';

/**
 * Scripts with a URL kept per visit: the rest of PAGE_SCRIPTS_MAX stays for inline code and handlers, which
 * are added last (a page that loads scripts without end must not push its own inline code out).
 */
export const PAGE_URL_SCRIPTS_MAX = Math.floor(PAGE_SCRIPTS_MAX * 0.8);
/** How long collecting waits for bodies still being read. */
const BODY_WAIT_MS = 3_000;
/** Bodies read at once (each is a CDP round trip holding the body in memory). */
const BODY_READS_AT_ONCE = 4;

export const sha384 = (data: Buffer | string) =>
  `sha384-${createHash('sha384').update(data).digest('base64')}`;
/** The form browsers report in `csp-hash` reports ('report-sha256'). */
export const sha256 = (data: Buffer | string) =>
  `sha256-${createHash('sha256').update(data).digest('base64')}`;

/**
 * Whether a response allows CORS for the page: Access-Control-Allow-Origin `*` or the page's own origin
 * (what SRI with crossorigin="anonymous" needs of a cross-origin file). Chromium sends CORS-mode requests only
 * for `crossorigin` elements, so most of what the crawl sees are no-cors responses; their ACAO still tells
 * whether a CORS request would succeed. A server that answers ACAO only to requests with an Origin header
 * reads as "no CORS" here: the proposal then errs on the side of not proposing.
 */
export function corsAllows(headers: Record<string, string> | undefined, documentUrl: string): boolean {
  let allowed: string | undefined;
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'access-control-allow-origin') allowed = value.trim();
  }
  if (allowed === undefined) return false;
  if (allowed === '*') return true;
  try {
    const origin = new URL(documentUrl).origin;
    return origin !== 'null' && allowed === origin;
  } catch {
    return false;
  }
}

interface Digests {
  digest: string;
  sha256: string;
}

interface Initiator {
  type?: string;
  url?: string;
  stack?: StackTrace;
}
interface StackTrace {
  callFrames: { url: string }[];
  parent?: StackTrace;
}

/** The script URL whose code made the request (the innermost frame with a URL), if code did. */
export function initiatorScript(initiator: Initiator | undefined, documentUrl: string): string | null {
  if (initiator?.type !== 'script') return null;
  for (let stack = initiator.stack, depth = 0; stack && depth < 32; stack = stack.parent, depth++) {
    for (const frame of stack.callFrames) {
      if (!frame.url) continue;
      // Inline code of the document itself: the site's page loaded it, no script URL to name.
      return frame.url === documentUrl ? null : frame.url;
    }
  }
  return initiator.url && initiator.url !== documentUrl ? initiator.url : null;
}

export class ScriptRecorder {
  private scripts = new Map<string, PageScript>();
  private stylesheets = new Map<string, PageStylesheet>();
  /** Stylesheets @imported by other stylesheets this visit (not recorded). */
  private imported = new Set<string>();
  /** Request id (per session) → its URL, initiator and document, from requestWillBeSent. */
  private requests = new Map<string, { url: string; initiator: string | null; document: string }>();
  /** URL → the initiator of its first request this visit. */
  private initiators = new Map<string, string | null>();
  private reads: Promise<void>[] = [];
  private running = 0;
  private queue: (() => Promise<void>)[] = [];
  private visit = 0;
  private urlScripts = 0;
  /** Digests read by this tab, by URL, kept across visits (bounded by WATCH_LIMITS.scripts). */
  private readonly known = new Map<string, Digests>();

  reset(): void {
    this.scripts.clear();
    this.stylesheets.clear();
    this.imported.clear();
    this.requests.clear();
    this.initiators.clear();
    this.urlScripts = 0;
    this.reads = [];
    this.queue = [];
    this.visit++;
  }

  /** Records the page's (workerUrl null) or a worker's script responses. */
  watch(session: CDPSession, context: string, workerUrl: string | null): void {
    session.on(
      'Network.requestWillBeSent',
      (event: {
        requestId: string;
        type?: string;
        documentURL: string;
        request: { url: string };
        initiator?: Initiator;
      }) => {
        // Scripts, stylesheets, and what a worker's own script is requested as; images, fetches are not kept.
        const { type } = event;
        if (type !== undefined && type !== 'Script' && type !== 'Other' && type !== 'Stylesheet') return;
        if (this.requests.size >= (PAGE_SCRIPTS_MAX + PAGE_STYLESHEETS_MAX) * 2) return;
        // A stylesheet another stylesheet @imports has no element to carry an integrity attribute.
        const by = event.initiator;
        if (type === 'Stylesheet' && by?.type === 'parser' && by.url && by.url !== event.documentURL) {
          if (this.imported.size < PAGE_STYLESHEETS_MAX) this.imported.add(event.request.url);
          return;
        }
        const initiator = initiatorScript(event.initiator, event.documentURL);
        this.requests.set(`${context}:${event.requestId}`, {
          url: event.request.url,
          initiator,
          document: event.documentURL,
        });
        if (!this.initiators.has(event.request.url)) this.initiators.set(event.request.url, initiator);
      },
    );
    const types = new Map<string, { kind: 'worker' | 'external' | 'stylesheet'; cors: boolean }>();
    session.on(
      'Network.responseReceived',
      (event: {
        requestId: string;
        type?: string;
        response: { url: string; headers?: Record<string, string> };
      }) => {
        const worker = workerUrl !== null && event.response.url === workerUrl;
        if (event.type !== 'Script' && event.type !== 'Stylesheet' && !worker) return;
        if (event.type === 'Stylesheet' && this.imported.has(event.response.url)) return;
        const id = `${context}:${event.requestId}`;
        let request = this.requests.get(id);
        if (!request) {
          request = { url: event.response.url, initiator: null, document: workerUrl ?? '' };
          this.requests.set(id, request);
        }
        const kind = worker ? 'worker' : event.type === 'Stylesheet' ? 'stylesheet' : 'external';
        types.set(event.requestId, { kind, cors: corsAllows(event.response.headers, request.document) });
      },
    );
    session.on('Network.loadingFailed', (event: { requestId: string }) => types.delete(event.requestId));
    session.on('Network.loadingFinished', (event: { requestId: string }) => {
      const response = types.get(event.requestId);
      if (!response) return;
      types.delete(event.requestId);
      const request = this.requests.get(`${context}:${event.requestId}`);
      if (!request || !/^https?:/i.test(request.url)) return;
      const known = this.known.get(request.url) ?? null;
      const { kind, cors } = response;
      const added =
        kind === 'stylesheet'
          ? this.addStylesheet({ url: request.url, digest: known?.digest ?? null, cors })
          : this.add({
              kind,
              url: request.url,
              digest: known?.digest ?? null,
              initiator: request.initiator,
              ...(kind === 'external' ? { sha256: known?.sha256 ?? null, cors } : {}),
            });
      // One read per URL and tab (the same bundle on every page is read once), and none beyond the cap: a
      // page cannot queue reads without end.
      if (!added || known) return;
      const visit = this.visit;
      this.read(async () => {
        const body = (await session.send('Network.getResponseBody', { requestId: event.requestId })) as {
          body: string;
          base64Encoded: boolean;
        };
        // Both digests from the same bytes: SRI's SHA-384 and the SHA-256 that `csp-hash` reports carry.
        const bytes = Buffer.from(body.body, body.base64Encoded ? 'base64' : 'utf8');
        const digests = { digest: sha384(bytes), sha256: sha256(bytes) };
        if (this.known.size < WATCH_LIMITS.scripts) this.known.set(request.url, digests);
        if (visit !== this.visit) return;
        const key = request.url.slice(0, WATCH_LIMITS.urlChars);
        if (kind === 'stylesheet') {
          const sheet = this.stylesheets.get(key);
          if (sheet) sheet.digest = digests.digest;
          return;
        }
        const script = this.scripts.get(key);
        if (!script) return;
        script.digest = digests.digest;
        if (script.kind === 'external') script.sha256 = digests.sha256;
      });
    });
  }

  /** Whether the stylesheet is new to this visit (and within the cap). */
  private addStylesheet(sheet: PageStylesheet): boolean {
    const url = sheet.url.slice(0, WATCH_LIMITS.urlChars);
    if (this.stylesheets.has(url) || this.stylesheets.size >= PAGE_STYLESHEETS_MAX) return false;
    this.stylesheets.set(url, { ...sheet, url });
    return true;
  }

  /** Whether the script is new to this visit (and within the cap). */
  private add(script: PageScript): boolean {
    const key = script.url?.slice(0, WATCH_LIMITS.urlChars) ?? `${script.kind}:${script.digest}`;
    if (this.scripts.has(key) || this.scripts.size >= PAGE_SCRIPTS_MAX) return false;
    if (script.url !== null && ++this.urlScripts > PAGE_URL_SCRIPTS_MAX) return false;
    // Cut to what the crawl state's schema takes: an endless URL must not make the state unloadable.
    this.scripts.set(key, {
      ...script,
      url: script.url?.slice(0, WATCH_LIMITS.urlChars) ?? null,
      initiator: script.initiator?.slice(0, WATCH_LIMITS.urlChars) ?? null,
    });
    return true;
  }

  private read(task: () => Promise<void>): void {
    const run = async (): Promise<void> => {
      this.running++;
      try {
        await task();
      } catch {
        // The body is gone (evicted, the target closed): the script stays, unread.
      } finally {
        this.running--;
        const next = this.queue.shift();
        if (next) this.reads.push(next());
      }
    };
    if (this.running < BODY_READS_AT_ONCE) this.reads.push(run());
    else this.queue.push(run);
  }

  /**
   * The visit's scripts: the responses recorded (bodies still being read get BODY_WAIT_MS), the script URLs
   * the page's policy reported that came from the memory cache (no response to read: the digest comes from
   * another page of the run), workers, and the inline code and handlers the instrumentation read.
   */
  async collect(
    items: readonly InstrumentItem[],
    reported: { url: string; worker: boolean }[],
    reportedStylesheets: readonly string[] = [],
    /** Script URLs the page's <script> elements include with an integrity attribute (integrity-attributes.ts). */
    withIntegrity: ReadonlySet<string> = new Set(),
  ): Promise<{ scripts: PageScript[]; stylesheets: PageStylesheet[] }> {
    const deadline = new Promise((r) => setTimeout(r, BODY_WAIT_MS).unref?.());
    while (this.reads.length > 0 || this.queue.length > 0) {
      const pending = this.reads;
      this.reads = [];
      const settled = await Promise.race([
        Promise.allSettled(pending).then(() => true),
        deadline.then(() => false),
      ]);
      if (!settled) break;
    }
    for (const { url, worker } of reported) {
      if (/^https?:/i.test(url)) {
        this.add({
          kind: worker ? 'worker' : 'external',
          url,
          digest: null,
          initiator: this.initiators.get(url) ?? null,
          ...(worker ? {} : { sha256: null, cors: null }),
        });
      }
    }
    for (const url of reportedStylesheets) {
      if (/^https?:/i.test(url) && !this.imported.has(url))
        this.addStylesheet({ url, digest: null, cors: null });
    }
    for (const item of items) {
      if (
        item.k === 'inline' &&
        (item.directive === 'script-src-elem' || item.directive === 'script-src-attr')
      ) {
        const kind = item.directive === 'script-src-elem' ? 'inline' : 'handler';
        this.add({ kind, url: null, digest: sha384(item.text), initiator: null });
      } else if (item.k === 'javascript-url') {
        this.add({
          kind: 'handler',
          url: null,
          digest: sha384(javascriptUrlText(item.url)),
          initiator: null,
        });
      }
    }
    return {
      scripts: [...this.scripts.values()].map((s) =>
        s.kind === 'external' && s.url !== null ? { ...s, integrity: withIntegrity.has(s.url) } : { ...s },
      ),
      stylesheets: [...this.stylesheets.values()].map((s) => ({ ...s })),
    };
  }
}
