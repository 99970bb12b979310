// The API's answers gzipped for a client that accepts it. A screen's lists are JSON of tens of KB, and on a
// phone's network their size is time before the screen shows. CloudFront passes the API's answers through
// uncached, and so compresses none of them itself: the function does it (locally the same app does).
import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';

/** Below this an answer goes as it is: gzip's own framing would be most of what it saves. */
export const COMPRESS_MIN_BYTES = 1024;

export function compressAnswers(): MiddlewareHandler {
  const gzip = compress({ encoding: 'gzip', threshold: COMPRESS_MIN_BYTES });
  return (c, next) =>
    gzip(c, async () => {
      await next();
      // A JSON answer is a string in memory but carries no length: give it one, so the threshold applies.
      const type = c.res.headers.get('content-type') ?? '';
      if (!type.startsWith('application/json') || c.res.headers.has('content-length') || !c.res.body) return;
      const bytes = await c.res.arrayBuffer();
      c.res = new Response(bytes, c.res);
      c.res.headers.set('content-length', String(bytes.byteLength));
    });
}
