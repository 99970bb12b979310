// Requests made with an API token (Authorization: Bearer cspg_…): the token stands for its user, within its
// scopes, on the routes a deploy pipeline needs, and nowhere else. Deny by default: a route not in
// TOKEN_ROUTES (admin, account changes, 2FA, teams, token management, sign-in) is refused whatever the
// scopes. Such a request uses no cookie (loadSession skips it) and needs no CSRF origin (csrfGuard skips it):
// a browser never attaches an Authorization header on its own, and cross-origin scripts cannot set one
// without a CORS preflight we never grant. Tokens have their own rate limit, counted in the table. The
// token value is never logged; failures name the token's id at most.
import { API_TOKEN_HEADER } from '@csp/shared/http/edge-headers';
import type { ApiTokenScope } from '@csp/shared/schemas/api-token';
import { createMiddleware } from 'hono/factory';
import { apiTokenHash, isWellFormedApiToken } from '../../auth/api-token';
import { takeAttempt } from '../../auth/rate-limit';
import { AppError } from '../../errors';
import { getApiTokenByHash, touchApiToken } from '../../store/api-tokens';
import { getUser } from '../../store/users';
import type { ApiEnv } from '../deps';

type Method = 'GET' | 'WRITE';
/** What a token may reach (paths under /api), and the scope each needs. GET covers HEAD. */
const TOKEN_ROUTES: { method: Method; path: RegExp; scope: ApiTokenScope }[] = [
  { method: 'GET', path: /^\/api\/user$/, scope: 'read' },
  {
    method: 'GET',
    path: /^\/api\/domains(\/[^/]+(\/(analyses|csp-configurations|uri-reports|report-suggestions|schedule|alerts|alert-deliveries|changes|evidence))?)?$/,
    scope: 'read',
  },
  { method: 'GET', path: /^\/api\/domains\/[^/]+\/scripts(\/[^/]+\/history)?$/, scope: 'read' },
  { method: 'GET', path: /^\/api\/csp-analyses$/, scope: 'read' },
  { method: 'GET', path: /^\/api\/csp\/analyze\/[^/]+(\/pages|\/changes|\/integrity)?$/, scope: 'read' },
  { method: 'GET', path: /^\/api\/csp-configurations\/[^/]+\/export$/, scope: 'read' },
  { method: 'WRITE', path: /^\/api\/csp-analyses$/, scope: 'analyses:write' },
  { method: 'WRITE', path: /^\/api\/csp\/analyze$/, scope: 'analyses:write' },
  // A schedule starts analyses: a pipeline that may start them may schedule them.
  { method: 'WRITE', path: /^\/api\/domains\/[^/]+\/schedule$/, scope: 'analyses:write' },
  { method: 'WRITE', path: /^\/api\/csp-configurations(\/[^/]+)?$/, scope: 'configurations:write' },
  // Authorizing scripts is configuring what the site may run: the same scope as its policies.
  {
    method: 'WRITE',
    path: /^\/api\/domains\/[^/]+\/scripts\/(authorize|rules(\/[^/]+)?)$/,
    scope: 'configurations:write',
  },
];

/** The scope a token needs for this request, or null when tokens may not make it at all. */
export function tokenScopeFor(method: string, path: string): ApiTokenScope | null {
  const kind: Method = method === 'GET' || method === 'HEAD' ? 'GET' : 'WRITE';
  return TOKEN_ROUTES.find((r) => r.method === kind && r.path.test(path))?.scope ?? null;
}

const BEARER = /^Bearer +(\S+)$/i;

export function apiTokenAuth() {
  return createMiddleware<ApiEnv>(async function apiTokenMiddleware(c, next) {
    // Other schemes (Basic, from a proxy in front of the product) are not ours to judge. Behind CloudFront
    // the token arrives in API_TOKEN_HEADER (the viewer-request function moves it there).
    const value =
      BEARER.exec(c.req.header('authorization') ?? '')?.[1] ?? c.req.header(API_TOKEN_HEADER)?.trim();
    if (!value) return next();
    const { deps } = c.var;
    if (!isWellFormedApiToken(value)) throw new AppError(401, 'Invalid API token');
    const token = await getApiTokenByHash(deps.db, apiTokenHash(value));
    if (!token) throw new AppError(401, 'Invalid or revoked API token');
    if (token.expiresOn && Date.parse(token.expiresOn) <= Date.now()) {
      throw new AppError(401, `API token expired on ${token.expiresOn.slice(0, 10)}`);
    }
    const user = await getUser(deps.db, token.userId);
    if (!user) throw new AppError(401, 'Invalid or revoked API token');

    const scope = tokenScopeFor(c.req.method, c.req.path);
    if (!scope) throw new AppError(403, 'API tokens cannot be used for this request; sign in instead');
    if (!token.scopes.includes(scope)) throw new AppError(403, `This API token lacks the '${scope}' scope`);
    const allowed = await takeAttempt(deps.db, {
      scope: 'api-token',
      subject: token.id,
      max: deps.config.API_TOKEN_PER_MINUTE,
      windowSeconds: 60,
    });
    if (!allowed) {
      c.var.log.warn('request refused: API token over its rate limit', { tokenId: token.id });
      return c.json(
        { message: 'Too many requests with this API token. Please wait a minute and try again.' },
        429,
        {
          'Retry-After': '60',
        },
      );
    }
    await touchApiToken(deps.db, token);
    c.set('apiToken', token);
    c.set('user', user);
    c.set('session', null);
    return next();
  });
}
