// HTTP(S) GET for discovery (robots.txt, sitemaps, the start URL's redirects), under the same SSRF guard as
// the browser's proxy: every hop's host is resolved and checked, and the socket goes to the checked address.
import http from 'node:http';
import https from 'node:https';
import { gunzipSync } from 'node:zlib';
import { BlockedTargetError, pinnedLookup, type TargetGuard } from './guard';

export interface FetchedResource {
  /** Final URL after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface GuardedFetchOptions {
  guard: TargetGuard;
  userAgent?: string;
  timeoutMs?: number;
  /** Bodies (after gunzip) larger than this are cut here: a sitemap is at most 50 MB by protocol. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Called before each hop (crawl delay per host). */
  beforeRequest?: (url: URL) => Promise<void>;
}

const DEFAULT_UA = 'Mozilla/5.0 (compatible; CSPGenerator/1.0; +https://github.com/)';

function once(
  url: URL,
  options: GuardedFetchOptions,
  addresses: Awaited<ReturnType<TargetGuard['resolve']>>,
) {
  const maxBytes = options.maxBytes ?? 20_000_000;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
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
          timeout: options.timeoutMs ?? 15_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              res.destroy();
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('close', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`timed out after ${options.timeoutMs ?? 15_000} ms`)));
      req.on('error', reject);
      req.end();
    },
  );
}

/** GET `input`, following up to 5 redirects, each hop checked. Throws BlockedTargetError on a refused hop. */
export async function guardedFetch(input: string, options: GuardedFetchOptions): Promise<FetchedResource> {
  let url = new URL(input);
  const maxRedirects = options.maxRedirects ?? 5;
  for (let hop = 0; ; hop++) {
    options.guard.checkScheme(url);
    const addresses = await options.guard.resolve(url.hostname);
    await options.beforeRequest?.(url);
    const res = await once(url, options, addresses);
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= maxRedirects) throw new Error(`${input}: too many redirects`);
      url = new URL(location, url);
      continue;
    }
    let body = res.body;
    // .xml.gz sitemaps are gzip files (no Content-Encoding); compressed transfers are too.
    if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
      try {
        body = gunzipSync(body, { maxOutputLength: options.maxBytes ?? 20_000_000 });
      } catch {
        throw new Error(`${url.href}: invalid gzip data`);
      }
    }
    return {
      url: url.href,
      status: res.status,
      contentType: String(res.headers['content-type'] ?? ''),
      body,
    };
  }
}

export { BlockedTargetError };
