// The product's own response headers at the edge: the same strict CSP and companions the Hono apps send
// (functions/src/http/security-headers.ts), so the static web app is served with them too.

// The one definition of our policy; imported through the workspace package so that TypeScript treats it
// as a dependency rather than a source file of this project.
import { OWN_POLICY } from '@csp/shared/csp/own-policy';
import { CLOUDFRONT_CSP_MAX } from '@csp/shared/csp/serialize';
import { Duration } from 'aws-cdk-lib';
import {
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  type ResponseHeadersPolicyProps,
} from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';

const TWO_YEARS = Duration.days(730);

export class OwnHeaders extends Construct {
  /** For the web app (S3): every header is ours, whatever the origin sends. */
  readonly web: ResponseHeadersPolicy;
  /** For /api/*: the Lambdas set their own headers; these only fill in what a response lacks. */
  readonly api: ResponseHeadersPolicy;

  constructor(scope: Construct, id: string, props: { policy?: string } = {}) {
    super(scope, id);
    const policy = props.policy ?? OWN_POLICY;
    if (policy.length > CLOUDFRONT_CSP_MAX) {
      throw new Error(
        `Our CSP is ${policy.length} characters; a CloudFront response headers policy takes at most ${CLOUDFRONT_CSP_MAX}`,
      );
    }
    this.web = new ResponseHeadersPolicy(this, 'Web', headers(policy, true, 'CSP Generator web app'));
    this.api = new ResponseHeadersPolicy(this, 'Api', headers(policy, false, 'CSP Generator API'));
  }
}

function headers(policy: string, override: boolean, comment: string): ResponseHeadersPolicyProps {
  return {
    comment,
    securityHeadersBehavior: {
      contentSecurityPolicy: { contentSecurityPolicy: policy, override },
      strictTransportSecurity: { accessControlMaxAge: TWO_YEARS, includeSubdomains: true, override },
      contentTypeOptions: { override },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override },
    },
    customHeadersBehavior: {
      customHeaders: [
        { header: 'Cross-Origin-Opener-Policy', value: 'same-origin', override },
        {
          header: 'Permissions-Policy',
          value: 'camera=(), microphone=(), geolocation=(), payment=()',
          override,
        },
      ],
    },
  };
}
