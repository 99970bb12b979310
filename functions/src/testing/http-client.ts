// A small HTTP client for API tests: real requests to the local server, with a cookie jar and the
// same-origin Origin header a browser would send on writes. `localAddress` sends from another loopback
// address (127.0.0.2, …): to the server, another client.
import { request as httpRequest } from 'node:http';

/** A fetch Response whose JSON body tests may read freely (assertions check its shape). */
// biome-ignore lint/suspicious/noExplicitAny: test responses are checked by the assertions that read them
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly origin: string | null = baseUrl,
    private readonly localAddress?: string,
  ) {}

  get(path: string, headers: Record<string, string> = {}) {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request('POST', path, body, headers);
  }

  patch(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request('PATCH', path, body, headers);
  }

  put(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request('PUT', path, body, headers);
  }

  delete(path: string, headers: Record<string, string> = {}) {
    return this.request('DELETE', path, undefined, headers);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size > 0) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET' && this.origin && !('origin' in h)) h.origin = this.origin;
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      if (!('content-type' in h)) h['content-type'] = 'application/json';
    }
    const url = new URL(path, this.baseUrl);
    const res = this.localAddress
      ? await sendFrom(this.localAddress, url, method, h, payload)
      : await fetch(url, { method, headers: h, body: payload });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }
}

/** One request over node:http from `localAddress` (fetch cannot choose its source address). */
function sendFrom(
  localAddress: string,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
            out.append(name, v);
          }
        }
        const status = res.statusCode ?? 0;
        const empty = status === 204 || status === 304;
        resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
