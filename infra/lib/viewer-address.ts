// The CloudFront Function on every /api/* viewer request: it writes the viewer's address, taken from the
// connection (event.viewer.ip), into VIEWER_IP_HEADER, replacing anything a client sent under that name.
// The origin request policy (AllViewerExceptHostHeader) forwards it; the functions read only this header,
// and only on requests that carry the origin-verify value (functions/src/http/client-address.ts).
import { VIEWER_IP_HEADER } from '@csp/shared/http/edge-headers';

export const VIEWER_ADDRESS_SOURCE = `function handler(event) {
  var request = event.request;
  request.headers['${VIEWER_IP_HEADER}'] = { value: event.viewer.ip };
  return request;
}`;
