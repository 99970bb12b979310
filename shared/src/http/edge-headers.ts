// Headers CloudFront adds to every request it forwards to the API and the report route. The functions
// trust them only when the request also carries the origin-verify value (functions/src/http/).

/** The secret value proving the request came through CloudFront (infra/lib/web-distribution.ts). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/**
 * The viewer's address, written by a CloudFront Function on every /api/* viewer request from the
 * connection itself (event.viewer.ip), replacing whatever a client sent under that name: the address the
 * rate limits use cannot be forged.
 */
export const VIEWER_IP_HEADER = 'x-csp-viewer-ip';

/**
 * The Host the viewer asked CloudFront for (the product's public name), written by the same function. The
 * Function URL behind it sees its own Host; the API takes its public origin (cookies, the CSRF check,
 * links) from this header, on requests carrying the origin-verify value (functions/src/http/viewer-host.ts).
 */
export const VIEWER_HOST_HEADER = 'x-csp-viewer-host';

/**
 * The API token of an `Authorization: Bearer …` viewer request, moved here by the same function (and the
 * Authorization header removed): CloudFront's origin access control signs each request to the Function URL
 * in Authorization, which would replace the token. The API reads the token from either header
 * (functions/src/api/middleware/api-token.ts); being a credential, it needs no origin-verify value.
 */
export const API_TOKEN_HEADER = 'x-csp-api-token';
