import { ORIGIN_VERIFY_HEADER, VIEWER_HOST_HEADER } from '@csp/shared/http/edge-headers';
import { describe, expect, it } from 'vitest';
import { withViewerHost } from './viewer-host';

const SECRET = 'a-secret-of-at-least-16-chars';
const event = (headers: Record<string, string>) => ({
  headers,
  requestContext: { domainName: 'abc123.lambda-url.eu-west-1.on.aws', requestId: 'r1' },
});

describe('withViewerHost', () => {
  it("takes CloudFront's viewer host as the request's domain when the origin-verify value comes with it", () => {
    const out = withViewerHost(
      event({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_HOST_HEADER]: 'D111.cloudfront.net' }),
      [SECRET],
    );
    expect(out.requestContext.domainName).toBe('d111.cloudfront.net');
    expect(out.requestContext.requestId).toBe('r1');
  });

  it('ignores the header without the origin-verify value, with a wrong one, or when it is not a host', () => {
    const cases = [
      event({ [VIEWER_HOST_HEADER]: 'evil.example' }),
      event({ [ORIGIN_VERIFY_HEADER]: 'wrong-value-of-some-length', [VIEWER_HOST_HEADER]: 'evil.example' }),
      event({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_HOST_HEADER]: 'evil.example/path' }),
      event({ [ORIGIN_VERIFY_HEADER]: SECRET, [VIEWER_HOST_HEADER]: 'user@evil.example' }),
    ];
    for (const e of cases) {
      expect(withViewerHost(e, [SECRET]).requestContext.domainName).toBe(
        'abc123.lambda-url.eu-west-1.on.aws',
      );
    }
  });
});
