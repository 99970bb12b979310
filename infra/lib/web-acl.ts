// Optional AWS WAF in front of CloudFront (`-c waf=true`): rate-based rules per client address, a tight one
// on sign-in, registration and the proof-of-work challenge and a broad one on everything. A fixed monthly
// cost (README, "Costs"), so it is off by default; the per-route throttles and the application's own
// per-client limits hold without it. A CloudFront web ACL must live in us-east-1.
import { Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

/** Requests per client address per 5 minutes (WAF's evaluation window). */
export const WAF_LIMITS = { signIn: 100, all: 2000 } as const;
export const SIGN_IN_PATHS = ['/api/login', '/api/register', '/api/altcha-challenge'] as const;

const visibility = (name: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName: name,
  sampledRequestsEnabled: true,
});

export class WebAcl extends Construct {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== 'us-east-1') {
      throw new Error(
        `-c waf=true needs the stack in us-east-1 (CloudFront's web ACLs live there); this stack is in ${region}.`,
      );
    }
    this.acl = new CfnWebACL(this, 'Acl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('csp-generator'),
      rules: [
        {
          name: 'sign-in-rate',
          priority: 0,
          action: { block: {} },
          visibilityConfig: visibility('csp-generator-sign-in-rate'),
          statement: {
            rateBasedStatement: {
              limit: WAF_LIMITS.signIn,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                orStatement: {
                  statements: SIGN_IN_PATHS.map((path) => ({
                    byteMatchStatement: {
                      fieldToMatch: { uriPath: {} },
                      positionalConstraint: 'EXACTLY',
                      searchString: path,
                      textTransformations: [{ priority: 0, type: 'NONE' }],
                    },
                  })),
                },
              },
            },
          },
        },
        {
          name: 'all-rate',
          priority: 1,
          action: { block: {} },
          visibilityConfig: visibility('csp-generator-all-rate'),
          statement: {
            rateBasedStatement: { limit: WAF_LIMITS.all, evaluationWindowSec: 300, aggregateKeyType: 'IP' },
          },
        },
      ],
    });
  }
}
