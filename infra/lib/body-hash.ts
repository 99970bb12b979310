// The Lambda@Edge function on every request CloudFront sends to a Function URL origin with origin access
// control (the API, the report endpoint). OAC signs the origin request with SigV4, and Lambda refuses a
// POST or PUT whose signature does not cover its body: the SHA-256 of the body must arrive in
// x-amz-content-sha256, which browsers (the web app, CSP reports) never send. This function, at the origin
// request (after the viewer-request function, before OAC signs), computes it from the body CloudFront hands
// it (includeBody: up to 1 MB; the API refuses bodies over 400 KB anyway) and replaces whatever a client
// sent under that name. A body CloudFront cut is answered 413 here: signing part of it would only fail.
// Plain CommonJS for the Node.js runtime, no dependencies.
export const BODY_HASH_HEADER = 'x-amz-content-sha256';

export const BODY_HASH_SOURCE = `'use strict';
const { createHash } = require('node:crypto');
exports.handler = async (event) => {
  const request = event.Records[0].cf.request;
  const body = request.body;
  if (body && body.inputTruncated) {
    return {
      status: '413',
      statusDescription: 'Payload Too Large',
      headers: { 'content-type': [{ key: 'Content-Type', value: 'application/json' }] },
      body: '{"message":"Request body is too large"}',
    };
  }
  const data = body && body.data ? Buffer.from(body.data, body.encoding === 'text' ? 'utf8' : 'base64') : Buffer.alloc(0);
  request.headers['${BODY_HASH_HEADER}'] = [
    { key: '${BODY_HASH_HEADER}', value: createHash('sha256').update(data).digest('hex') },
  ];
  return request;
};
`;
