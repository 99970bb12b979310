// In AWS only CloudFront may call the API's Function URL (origin access control); as a second line, and
// because the viewer headers are trusted only with it, CloudFront adds a secret header to every request;
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
