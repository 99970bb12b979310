// AWS WAF in front of CloudFront, on by default (`-c waf=false` leaves it out): rate-based rules per
// client IP, so that one client over its budget is blocked alone, at the edge, before any function runs.
// API Gateway's throttles were totals shared by every client; these are per address. One rule per public
// path: sign-in, registration and the proof-of-work challenge (tight), the report endpoint (generous: a
// busy site's visitors behind one NAT send many reports), the rest of the API, and everything at all. The
// application keeps the same budgets per address on its own (functions/src/api/middleware/
// client-rate-limit.ts, report-ingest/app.ts): WAF counts over a window and acts after a short delay, the
// application answers 429 from the first request over. A CloudFront web ACL lives in us-east-1 (the stack
// puts this construct there: services/web-hosting.ts).
import { Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export const SIGN_IN_PATHS = ['/api/login', '/api/register', '/api/altcha-challenge'] as const;
export const REPORT_PATH = '/api/uri-report';

/** Requests per client IP per evaluation window (WAF's windows: 60, 120, 300 or 600 s). */
export const WAF_LIMITS = {
  /** 20 a minute on average: a person signing in sends two (challenge, sign-in). */
  signIn: { limit: 100, windowSec: 300 },
  /**
   * 10 a second, counted per minute so that one client's burst stays small: at most 600 reports a minute,
   * about 12 execution-seconds of the ingest function's pool (20 executions = 1,200 a minute), 1 %.
   */
  report: { limit: 600, windowSec: 60 },
  /** The signed-in product: 10 a second on average. */
  api: { limit: 3000, windowSec: 300 },
  /** Everything, the web app's files included. */
  all: { limit: 10_000, windowSec: 300 },
} as const;

/** What a blocked client gets: 429 with the API's error body and Retry-After, not WAF's bare 403. */
const TOO_MANY_KEY = 'too-many-requests';
const TOO_MANY_BODY = JSON.stringify({
  message: 'Too many requests from your network address. Please wait a few minutes and try again.',
});

const visibility = (name: string) => ({
  cloudWatchMetricsEnabled: true,
  metricName: name,
  sampledRequestsEnabled: true,
});

const pathIs = (path: string) => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'EXACTLY',
    searchString: path,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
});
const pathStartsWith = (prefix: string) => ({
  byteMatchStatement: {
    fieldToMatch: { uriPath: {} },
    positionalConstraint: 'STARTS_WITH',
    searchString: prefix,
    textTransformations: [{ priority: 0, type: 'NONE' }],
  },
});

function rateRule(
  name: string,
  priority: number,
  { limit, windowSec }: { limit: number; windowSec: number },
  scopeDownStatement?: CfnWebACL.StatementProperty,
): CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    action: {
      block: {
        customResponse: {
          responseCode: 429,
          customResponseBodyKey: TOO_MANY_KEY,
          responseHeaders: [{ name: 'retry-after', value: String(windowSec) }],
        },
      },
    },
    visibilityConfig: visibility(`csp-generator-${name}`),
    statement: {
      rateBasedStatement: {
        limit,
        evaluationWindowSec: windowSec,
        aggregateKeyType: 'IP',
        ...(scopeDownStatement ? { scopeDownStatement } : {}),
      },
    },
  };
}

export class WebAcl extends Construct {
  readonly acl: CfnWebACL;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== 'us-east-1') {
      throw new Error(`A CloudFront web ACL must be created in us-east-1, not ${region}.`);
    }
    this.acl = new CfnWebACL(this, 'Acl', {
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('csp-generator'),
      customResponseBodies: {
        [TOO_MANY_KEY]: { contentType: 'APPLICATION_JSON', content: TOO_MANY_BODY },
      },
      rules: [
        rateRule('sign-in-rate', 0, WAF_LIMITS.signIn, {
          orStatement: { statements: SIGN_IN_PATHS.map(pathIs) },
        }),
        rateRule('report-rate', 1, WAF_LIMITS.report, pathIs(REPORT_PATH)),
        rateRule('api-rate', 2, WAF_LIMITS.api, {
          andStatement: {
            statements: [pathStartsWith('/api/'), { notStatement: { statement: pathIs(REPORT_PATH) } }],
          },
        }),
        rateRule('all-rate', 3, WAF_LIMITS.all),
      ],
    });
  }
}
