// The API: one sub-app per resource, joined under /api. Used as is by the Lambda and by the local server.
import { Hono } from 'hono';
import { limitBody } from '../http/body-limit';
import { compressAnswers } from '../http/compress-answers';
import { securityHeaders } from '../http/security-headers';
import type { ApiDeps, ApiEnv } from './deps';
import { apiTokenAuth } from './middleware/api-token';
import { clientRateLimit } from './middleware/client-rate-limit';
import { csrfGuard } from './middleware/csrf';
import { handleError, handleNotFound } from './middleware/errors';
import { originGuard } from './middleware/origin-guard';
import { requestContext } from './middleware/request-context';
import { loadSession } from './middleware/session';
import { openApiDocument } from './openapi';
import { DOCS_CSS, docsPage } from './openapi-docs';
import { achievementRoutes } from './routes/achievements';
import { adminRoutes } from './routes/admin';
import { domainAlertRoutes } from './routes/alerts';
import { analysisRoutes, analyzeRoutes } from './routes/analyses';
import { apiTokenRoutes } from './routes/api-tokens';
import { challengeRoutes, loginRoutes, logoutRoutes, registerRoutes } from './routes/auth';
import { configurationRoutes, domainConfigurationRoutes } from './routes/configurations';
import { domainRoutes } from './routes/domains';
import { domainEvidenceRoutes } from './routes/evidence';
import { domainFieldHashRoutes } from './routes/field-hashes';
import { analysisIntegrityRoutes } from './routes/integrity';
import { domainReportRoutes, reportRoutes } from './routes/reports';
import { domainScheduleRoutes } from './routes/schedules';
import { domainScriptRoutes } from './routes/scripts';
import { teamAlertRoutes } from './routes/team-alerts';
import { invitationRoutes, myTeamRoutes, teamRoutes } from './routes/teams';
import { userRoutes } from './routes/user';
import { analysisChangesRoutes, domainChangesRoutes } from './routes/watch-changes';

const limitKb = (kb: number) => limitBody(kb * 1024);
// Crawl requests may carry a sitemap and configurations a hash-heavy policy; everything else is small.
const largeBody = limitKb(400);
const smallBody = limitKb(64);
const LARGE_BODY_PATHS = new Set(['/api/csp/analyze', '/api/csp-analyses', '/api/csp-configurations']);
const isLargeBodyPath = (path: string) =>
  LARGE_BODY_PATHS.has(path) || path.startsWith('/api/csp-configurations/');

export function createApiApp(deps: ApiDeps) {
  const app = new Hono<ApiEnv>().basePath('/api');
  app.onError(handleError);
  app.notFound(handleNotFound);
  app.use(compressAnswers());
  app.use(requestContext(deps));
  app.use(originGuard());
  // Before any body is read or any table touched: a client over its budget costs next to nothing.
  app.use(clientRateLimit(deps.config));
  // HTTPS: an https PUBLIC_URL, or behind CloudFront (origin-verify configured), which serves HTTPS only.
  const https = () =>
    deps.config.PUBLIC_URL ? deps.config.PUBLIC_URL.startsWith('https:') : Boolean(deps.secrets.originVerify);
  app.use(securityHeaders({ https }));
  app.use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  app.use((c, next) => (isLargeBodyPath(c.req.path) ? largeBody : smallBody)(c, next));
  app.use(apiTokenAuth());
  app.use(csrfGuard());
  app.use(loadSession());

  // The API's description, generated once from the route table below (openapi.ts).
  let doc: ReturnType<typeof openApiDocument> | undefined;
  const document = () => {
    doc ??= openApiDocument(api, { version: API_VERSION, serverUrl: deps.config.PUBLIC_URL });
    return doc;
  };

  // Chained, so the app's type carries every route: AppType, which the web client is typed with.
  const api = app
    .route('/altcha-challenge', challengeRoutes)
    .route('/register', registerRoutes)
    .route('/login', loginRoutes)
    .route('/logout', logoutRoutes)
    .route('/user', userRoutes)
    .route('/user/team', myTeamRoutes)
    .route('/user/api-tokens', apiTokenRoutes)
    .route('/domains', domainRoutes)
    .route('/domains', domainReportRoutes)
    .route('/domains', domainConfigurationRoutes)
    .route('/domains', domainScheduleRoutes)
    .route('/domains', domainAlertRoutes)
    .route('/domains', domainScriptRoutes)
    .route('/domains', domainFieldHashRoutes)
    .route('/domains', domainChangesRoutes)
    .route('/domains', domainEvidenceRoutes)
    .route('/csp-analyses', analysisRoutes)
    .route('/csp/analyze', analyzeRoutes)
    .route('/csp/analyze', analysisChangesRoutes)
    .route('/csp/analyze', analysisIntegrityRoutes)
    .route('/uri-reports', reportRoutes)
    .route('/csp-configurations', configurationRoutes)
    .route('/teams', teamRoutes)
    .route('/teams', teamAlertRoutes)
    .route('/invitations', invitationRoutes)
    .route('/achievements', achievementRoutes)
    .route('/admin', adminRoutes)
    .get('/openapi.json', (c) => c.json(document()))
    .get('/docs', (c) => c.html(docsPage(document())))
    .get('/docs.css', (c) => c.body(DOCS_CSS, 200, { 'Content-Type': 'text/css; charset=utf-8' }));
  return api;
}

/** The API's version in its OpenAPI document: raised when a route changes incompatibly. */
export const API_VERSION = '1.0.0';

/** Every route of the API with its input and its answers: the contract the web client is built on. */
export type AppType = ReturnType<typeof createApiApp>;
