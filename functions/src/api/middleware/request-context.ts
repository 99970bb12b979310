// Per-request context: the dependencies, a request id (echoed as X-Request-Id) and a logger that carries it.
// In AWS the id is the one Lambda gives the Function URL request, so a request's lines join up.
import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { ApiDeps, ApiEnv } from '../deps';

export function requestContext(deps: ApiDeps) {
  return createMiddleware<ApiEnv>(async function requestContextMiddleware(c, next) {
    const gateway = (c.env as { requestContext?: { requestId?: unknown } } | undefined)?.requestContext;
    const requestId =
      typeof gateway?.requestId === 'string' && /^[\w-]{1,64}$/.test(gateway.requestId)
        ? gateway.requestId
        : randomUUID();
    const log = deps.logger.child({ requestId });
    c.set('deps', deps);
    c.set('requestId', requestId);
    c.set('log', log);
    c.set('user', null);
    c.set('session', null);
    c.set('apiToken', null);
    const started = performance.now();
    await next();
    c.header('X-Request-Id', requestId);
    // Only method, path and status: query strings may carry ids or tokens.
    log.info('request', {
      method: c.req.method,
      path: loggablePath(c.req.path),
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });
}

/** The path without the secrets some carry (an invitation's token is its whole authority). */
export function loggablePath(path: string): string {
  return path.replace(/(\/invitations\/)[^/]+/, '$1:token');
}
