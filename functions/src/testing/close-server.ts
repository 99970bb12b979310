import type { Server } from 'node:http';

/**
 * Closes a test's HTTP server now. `server.close()` alone waits for every open connection, and a browser
 * keeps some open without a request on them (Chromium's speculative preconnects): Node counts those as
 * busy until its header timeout (60 s), long enough to time a test's `afterAll` out.
 */
export function closeServer(server: Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}
