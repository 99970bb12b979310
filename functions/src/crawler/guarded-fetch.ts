// HTTP(S) GET for discovery (robots.txt, sitemaps, the start URL's redirects), under the same SSRF guard as
// the browser's proxy: every hop's host is resolved and checked, and the socket goes to the checked address.
// Bodies stream (gunzipped on the fly, counted, cut at maxBytes), and a deadline bounds the whole fetch:
// a socket timeout alone would let a server that sends a byte now and then hold a fetch forever.
import http from 'node:http';
import https from 'node:https';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { BlockedTargetError, pinnedLookup, type TargetGuard } from './guard';

export interface FetchedResource {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface GuardedResponse {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  /**
   * The body as it arrives, gunzipped when it is gzip data. Read it once. After maxBytes it throws
   * BodyTooLargeError (the first maxBytes having been given), past the deadline FetchDeadlineError.
   */
  body: AsyncIterable<Buffer>;
  /** Drops the connection and the deadline's timer; call it when done, read to the end or not. */
  close(): void;
}

export interface GuardedFetchOptions {
  guard: TargetGuard;
  userAgent?: string;
  /** Longest silence on the socket (connecting, waiting for headers or the next bytes). */
  timeoutMs?: number;
  /** Epoch ms by which the whole fetch — every hop, waits before them, the body — is over; aborted then. */
  deadline?: number;
  /** Bodies (after gunzip) larger than this are cut here: a sitemap is at most 50 MB by protocol. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Called before each hop (crawl delay per host). */
  beforeRequest?: (url: URL) => Promise<void>;
}

/** The fetch's deadline passed; `deadline` tells which one (a fetch's own budget, or a crawl's). */
export class FetchDeadlineError extends Error {
  constructor(
    readonly deadline: number,
    message = 'timed out',
  ) {
    super(message);
    this.name = 'FetchDeadlineError';
  }
}

/** The body went past maxBytes (uncompressed, or compressed for gzip data); the first maxBytes were given. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

const DEFAULT_UA = 'Mozilla/5.0 (compatible; CSPGenerator/1.0; +https://github.com/)';
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 20_000_000;

/** A fetch's deadline: a signal that aborts its socket then, and a check for code that keeps the CPU busy. */
class Deadline {
  readonly at: number;
  private readonly startedAt = Date.now();
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(at: number | undefined) {
    this.at = at ?? Number.POSITIVE_INFINITY;
    if (Number.isFinite(this.at)) {
      this.timer = setTimeout(
        () => this.controller.abort(this.error()),
        Math.max(0, this.at - this.startedAt),
      );
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Throws once the deadline has passed, whether the timer could run or not. */
  check(): void {
    if (Date.now() >= this.at) throw this.error();
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  private error(): FetchDeadlineError {
    return new FetchDeadlineError(this.at, `timed out after ${this.at - this.startedAt} ms`);
  }
}

/** `promise`, or the signal's reason as soon as it aborts (the work behind `promise` is left to fail). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function request(
  url: URL,
  options: GuardedFetchOptions,
  addresses: Awaited<ReturnType<TargetGuard['resolve']>>,
  signal: AbortSignal,
): Promise<http.IncomingMessage> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      {
        method: 'GET',
        headers: {
          'user-agent': options.userAgent || DEFAULT_UA,
          accept: 'text/html,application/xml;q=0.9,text/xml;q=0.9,*/*;q=0.8',
          'accept-encoding': 'gzip',
        },
        lookup: pinnedLookup(addresses) as never,
        timeout: timeoutMs,
        signal,
      },
      resolve,
    );
    req.on('timeout', () => req.destroy(new Error(`no data for ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/** Follows up to maxRedirects redirects, each hop checked; the final response's body is left unread. */
async function follow(
  input: string,
  options: GuardedFetchOptions,
  signal: AbortSignal,
): Promise<{ url: URL; res: http.IncomingMessage }> {
  let url = new URL(input);
  const maxRedirects = options.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    options.guard.checkScheme(url);
    const addresses = await options.guard.resolve(
      url.hostname,
      Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
    );
    signal.throwIfAborted();
    await options.beforeRequest?.(url);
    signal.throwIfAborted();
    const res = await request(url, options, addresses, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.destroy();
      if (hop >= maxRedirects) throw new Error(`${input}: too many redirects`);
      url = new URL(location, url);
      continue;
    }
    return { url, res };
  }
}

/**
 * The body's chunks: gunzipped when the data starts with the gzip magic bytes (.xml.gz sitemaps have no
 * Content-Encoding; compressed transfers do), counted, cut at maxBytes. Streaming, so a gzip bomb is never
 * held in memory: the gunzip waits while the consumer works on a chunk.
 */
async function* bodyChunks(
  res: http.IncomingMessage,
  maxBytes: number,
  deadline: Deadline,
): AsyncGenerator<Buffer> {
  const raw = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let rawBytes = 0;
  const nextRaw = async (): Promise<Buffer | null> => {
    const next = await raw.next();
    if (next.done) return null;
    rawBytes += next.value.length;
    return next.value;
  };
  let gunzip: ReturnType<typeof createGunzip> | null = null;
  try {
    const head: Buffer[] = [];
    for (let length = 0; length < 2; ) {
      const chunk = await nextRaw();
      if (chunk === null) break;
      head.push(chunk);
      length += chunk.length;
    }
    const first = Buffer.concat(head);
    const gzip = first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
    async function* rawChunks(): AsyncGenerator<Buffer> {
      if (first.length > 0) yield first;
      for (let chunk = await nextRaw(); chunk !== null; chunk = await nextRaw()) {
        // Deflate can also turn much into nothing: compressed input is capped too.
        if (gzip && rawBytes > maxBytes) throw new BodyTooLargeError(maxBytes);
        yield chunk;
      }
    }
    gunzip = gzip ? createGunzip() : null;
    const chunks: AsyncIterable<Buffer> = gunzip
      ? pipeline(Readable.from(rawChunks(), { objectMode: false }), gunzip, () => {})
      : rawChunks();
    let bytes = 0;
    for await (const chunk of chunks) {
      // Checked here too: when data is already buffered, a busy consumer would not let the timer run.
      deadline.check();
      bytes += chunk.length;
      if (bytes > maxBytes) {
        const room = maxBytes - (bytes - chunk.length);
        if (room > 0) yield chunk.subarray(0, room);
        throw new BodyTooLargeError(maxBytes);
      }
      yield chunk;
    }
  } catch (error) {
    if (deadline.signal.aborted) throw deadline.signal.reason;
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (code.startsWith('Z_')) throw new Error('invalid gzip data');
    throw error;
  } finally {
    gunzip?.destroy();
    res.destroy();
  }
}

/** GET `input` and stream its body. Throws BlockedTargetError on a refused hop, FetchDeadlineError when late. */
export async function guardedRequest(input: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = new Deadline(options.deadline);
  let followed: { url: URL; res: http.IncomingMessage };
  try {
    followed = await abortable(follow(input, options, deadline.signal), deadline.signal);
  } catch (error) {
    deadline.clear();
    throw deadline.signal.aborted ? deadline.signal.reason : error;
  }
  const { url, res } = followed;
  return {
    url: url.href,
    status: res.statusCode ?? 0,
    contentType: String(res.headers['content-type'] ?? ''),
    body: bodyChunks(res, options.maxBytes ?? DEFAULT_MAX_BYTES, deadline),
    close() {
      deadline.clear();
      res.destroy();
    },
  };
}

/** GET `input` whole (a body over maxBytes is cut there), following up to 5 redirects, each hop checked. */
export async function guardedFetch(input: string, options: GuardedFetchOptions): Promise<FetchedResource> {
  const res = await guardedRequest(input, options);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of res.body) chunks.push(chunk);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
  } finally {
    res.close();
  }
  return { url: res.url, status: res.status, contentType: res.contentType, body: Buffer.concat(chunks) };
}

export { BlockedTargetError };
