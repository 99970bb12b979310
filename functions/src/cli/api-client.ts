// The product's API as a pipeline calls it: the address from CSP_GENERATOR_URL, an API token from
// CSP_GENERATOR_TOKEN sent as `Authorization: Bearer …` (no cookie, no CSRF origin, no proof-of-work). The
// token is taken from the environment only — never a flag, which shell history and `ps` would keep — and is
// hidden in everything the CLI writes (io.secret).
import { API_TOKEN_PREFIX } from '@csp/shared/schemas/api-token';
import { FailureError, UsageError } from './exit-codes';
import type { CliIo } from './io';

export const API_URL_ENV = 'CSP_GENERATOR_URL';
export const API_TOKEN_ENV = 'CSP_GENERATOR_TOKEN';

export interface ApiClient {
  /** The answer of a 2xx; any other status is a FailureError with the server's message. */
  request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response>;
  json<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
}

export function apiClientFrom(io: CliIo): ApiClient {
  const base = io.env[API_URL_ENV]?.trim();
  const token = io.env[API_TOKEN_ENV]?.trim();
  if (token) io.secret(token);
  if (!base)
    throw new UsageError(`${API_URL_ENV} is not set: the product's address, e.g. https://csp.example.com.`);
  if (!token)
    throw new UsageError(`${API_TOKEN_ENV} is not set: create an API token in Settings › API tokens.`);
  if (!token.startsWith(API_TOKEN_PREFIX)) {
    throw new UsageError(
      `${API_TOKEN_ENV} does not look like an API token (they start with ${API_TOKEN_PREFIX}).`,
    );
  }
  let origin: URL;
  try {
    origin = new URL(base);
    if (origin.protocol !== 'https:' && origin.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new UsageError(`${API_URL_ENV} must be an http(s) URL (got '${base}').`);
  }

  const request = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    retries = 3,
  ): Promise<Response> => {
    const url = new URL(path, origin);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(60_000),
      });
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      throw new FailureError(`Could not reach ${origin.origin}${cause}`);
    }
    // Over the token's rate limit nothing was done: wait as told and ask again.
    if (res.status === 429 && retries > 0) {
      const seconds = Math.min(60, Math.max(1, Number(res.headers.get('retry-after')) || 10));
      await res.body?.cancel().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      return request(method, path, body, retries - 1);
    }
    if (!res.ok)
      throw new FailureError(`${method} ${url.pathname} answered ${res.status}: ${await messageOf(res)}`);
    return res;
  };
  return {
    request,
    json: async <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
      (await (await request(method, path, body)).json()) as T,
  };
}

/** The server's `{"message"}`, or the start of whatever it sent. */
async function messageOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: a proxy's page
  }
  return text.slice(0, 200) || res.statusText;
}
