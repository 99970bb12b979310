// Request body caps, answered with a JSON 413 that says the limit.
import { bodyLimit } from 'hono/body-limit';

export function limitBody(bytes: number) {
  const kb = Math.round(bytes / 1024);
  return bodyLimit({
    maxSize: bytes,
    // The rest of the body is never read, so the connection cannot carry another request: say so.
    onError: (c) =>
      c.json({ message: `Request body is too large (${kb} KB at most)` }, 413, { Connection: 'close' }),
  });
}
