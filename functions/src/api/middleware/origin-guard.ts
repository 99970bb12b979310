// In AWS the API's execute-api URL is public. CloudFront adds a secret header to every request it forwards;
// a request without it went around CloudFront (and its headers, such as the viewer address the rate limits
// rely on, cannot be trusted), so it is refused. Locally no secret is set and the guard is off.
import { ORIGIN_VERIFY_HEADER } from '@csp/shared/http/edge-headers';
import { createMiddleware } from 'hono/factory';
import { AppError } from '../../errors';
import { carriesOriginVerify } from '../../http/origin-verify';
import type { ApiEnv } from '../deps';

export function originGuard() {
  return createMiddleware<ApiEnv>(async function originGuardMiddleware(c, next) {
    const expected = c.var.deps.secrets.originVerify;
    if (expected && !carriesOriginVerify(c.req.header(ORIGIN_VERIFY_HEADER), expected.accepted())) {
      throw new AppError(403, 'Direct access to the API is not allowed');
    }
    return next();
  });
}
