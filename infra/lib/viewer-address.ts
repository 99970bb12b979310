// The CloudFront Function on every /api/* viewer request: it writes the viewer's address, taken from the
// connection (event.viewer.ip), into VIEWER_IP_HEADER, and the Host the viewer asked for into
// VIEWER_HOST_HEADER, replacing anything a client sent under those names. The origin request policy
// (AllViewerExceptHostHeader) forwards them; the functions read them only on requests that carry the
// origin-verify value (functions/src/http/client-address.ts, viewer-host.ts). It also moves an API token
// sent as Authorization: Bearer into API_TOKEN_HEADER: origin access control signs the request to the
// Function URL in Authorization, so the token would not arrive where the viewer put it.
import { API_TOKEN_HEADER, VIEWER_HOST_HEADER, VIEWER_IP_HEADER } from '@csp/shared/http/edge-headers';

export const VIEWER_ADDRESS_SOURCE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
  var host = request.headers.host;
  if (host) request.headers['${VIEWER_HOST_HEADER}'] = { value: host.value };
  else delete request.headers['${VIEWER_HOST_HEADER}'];
  var auth = request.headers.authorization;
  var bearer = auth ? /^Bearer +(\\S+)$/i.exec(auth.value) : null;
  if (bearer) {
    request.headers['${API_TOKEN_HEADER}'] = { value: bearer[1] };
    delete request.headers.authorization;
  }
  return request;
}`;
