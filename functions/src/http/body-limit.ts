// Request body caps, answered with a JSON 413 that says the limit.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

export function limitBody(bytes: number): MiddlewareHandler {
  const kb = Math.round(bytes / 1024);
  const tooLarge = (c: Context) =>
    // The rest of the body is never read, so the connection cannot carry another request: say so.
    c.json({ message: `Request body is too large (${kb} KB at most)` }, 413, { Connection: 'close' });
  // Without a Content-Length (chunked), the body is counted as it streams in.
  const streamed = bodyLimit({ maxSize: bytes, onError: tooLarge });
  return async (c, next) => {
    // With one, it is the whole check: Node's parser never reads past it. This is the common case, and
    // the fast one: counting a stream re-wraps the request, which cost the report endpoint half its rate.
    const length = c.req.header('content-length');
    if (length === undefined || !/^\d+$/.test(length)) return streamed(c, next);
    if (Number(length) > bytes) return tooLarge(c);
    await next();
  };
}
