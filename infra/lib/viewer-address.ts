// The CloudFront Function on every /api/* viewer request: it writes the viewer's address, taken from the
// connection (event.viewer.ip), into VIEWER_IP_HEADER, and the Host the viewer asked for into
// VIEWER_HOST_HEADER, replacing anything a client sent under those names. The origin request policy
// (AllViewerExceptHostHeader) forwards them; the functions read them only on requests that carry the
// origin-verify value (functions/src/http/client-address.ts, viewer-host.ts).
import { VIEWER_HOST_HEADER, VIEWER_IP_HEADER } from '@csp/shared/http/edge-headers';

export const VIEWER_ADDRESS_SOURCE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
  var host = request.headers.host;
  if (host) request.headers['${VIEWER_HOST_HEADER}'] = { value: host.value };
  else delete request.headers['${VIEWER_HOST_HEADER}'];
  return request;
}`;
