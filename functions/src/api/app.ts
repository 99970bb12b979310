// The API: one sub-app per resource, joined under /api. Used as is by the Lambda and by the local server.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { securityHeaders } from '../http/security-headers';
import type { ApiDeps, ApiEnv } from './deps';
import { csrfGuard } from './middleware/csrf';
import { handleError, handleNotFound } from './middleware/errors';
import { originGuard } from './middleware/origin-guard';
import { requestContext } from './middleware/request-context';
import { loadSession } from './middleware/session';
import { achievementRoutes } from './routes/achievements';
import { analysisRoutes } from './routes/analyses';
import { authRoutes } from './routes/auth';
import { domainRoutes } from './routes/domains';
import { userRoutes } from './routes/user';

const KB = 1024;
const tooLarge = (limitKb: number) => (c: { json: (b: unknown, s: 413) => Response }) =>
  c.json({ message: `Request body is too large (${limitKb} KB at most)` }, 413);

export function createApiApp(deps: ApiDeps) {
  const app = new Hono<ApiEnv>().basePath('/api');
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use(requestContext(deps));
  app.use(originGuard());
  app.use(securityHeaders({ https: () => Boolean(deps.config.PUBLIC_URL?.startsWith('https:')) }));
  app.use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  // Crawl requests may carry a sitemap; everything else is small.
  app.use('/csp/analyze', bodyLimit({ maxSize: 400 * KB, onError: tooLarge(400) }));
  app.use('/csp-analyses', bodyLimit({ maxSize: 400 * KB, onError: tooLarge(400) }));
  app.use('*', async (c, next) => {
    if (c.req.path === '/api/csp/analyze' || c.req.path === '/api/csp-analyses') return next();
    return bodyLimit({ maxSize: 64 * KB, onError: tooLarge(64) })(c, next);
  });
  app.use(csrfGuard());
  app.use(loadSession());

  app.route('/', authRoutes);
  app.route('/user', userRoutes);
  app.route('/domains', domainRoutes);
  app.route('/', analysisRoutes);
  app.route('/achievements', achievementRoutes);
  return app;
}
