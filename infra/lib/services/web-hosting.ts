// The product's front door: CloudFront with AWS WAF (web-distribution.ts, edge-protection.ts) serving the
// web app from S3 and, by route, the functions' URLs, plus the origin-verify secret CloudFront sends them.
// What CloudFront needs from us-east-1 (the web ACL, the Lambda@Edge body hash) is in the stack when it is
// there, else in a companion stack there (`<id>-edge`, deployed first by the same `cdk deploy --all`).
import { Annotations, Stack, Token, Validations } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { EdgeProtection } from '../edge-protection';
import { STACK_ACKNOWLEDGMENTS } from '../nag-acknowledgments';
import { WebDistribution } from '../web-distribution';

export interface WebHostingProps {
  /** The built web app; uploaded only when it exists at synth time. */
  webDist: string;
  /** The origin-verify secret version CloudFront sends (a rotation's last step). Default: the latest. */
  originVerifyVersion?: string;
  /** AWS WAF with per-client rate rules in front of CloudFront. */
  waf: boolean;
}

/**
 * Created in the stack's own scope (not a node of its own), so its resources keep the logical IDs they had
 * when the stack held them directly: a deployed stack updates in place.
 */
export class WebHosting {
  /** Shared by CloudFront (as an origin header) and the functions behind it (which refuse requests without it). */
  readonly originVerify: Secret;
  readonly web: WebDistribution;

  constructor(stack: Stack, props: WebHostingProps) {
    // JSON with `current` (sent) and `previous` (still accepted): rotation is `npm run rotate:origin-verify`,
    // then a deploy with the version it prints (README, "Rotating the origin-verify secret").
    this.originVerify = new Secret(stack, 'OriginVerify', {
      description: 'CSP Generator: header value CloudFront sends to the API ({current, previous})',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ previous: '' }),
        generateStringKey: 'current',
        excludePunctuation: true,
        passwordLength: 48,
      },
    });
    const edge = edgeProtection(stack, props.waf);
    this.web = new WebDistribution(stack, 'Web', {
      bodyHash: edge.bodyHash,
      originVerify: this.originVerify,
      ...(props.originVerifyVersion ? { originVerifyVersion: props.originVerifyVersion } : {}),
      ...(edge.webAcl ? { webAclArn: edge.webAcl.acl.attrArn } : {}),
      webDist: props.webDist,
    });
    if (!this.web.deploysWebApp) {
      Annotations.of(stack).addWarningV2(
        'csp:web-dist-missing',
        'web/dist does not exist: the web app is not uploaded. Run `npm run build:web` before `cdk deploy`.',
      );
    }
  }
}

/**
 * The web ACL and the Lambda@Edge body hash, which CloudFront takes from us-east-1 only: in `stack` when it
 * is there (or its region is left to deploy time, which must then be us-east-1), else in a companion stack
 * `<id>-edge` in us-east-1 that it depends on, so `cdk deploy --all` deploys it first. Its two values cross
 * regions as its outputs (CDK's crossRegionReferences: Fn::GetStackOutput).
 */
function edgeProtection(stack: Stack, waf: boolean): EdgeProtection {
  if (Token.isUnresolved(stack.region) || stack.region === 'us-east-1') {
    return new EdgeProtection(stack, 'Edge', { waf });
  }
  const app = stack.node.scope;
  if (!app) throw new Error('The stack needs an app to put its us-east-1 companion in');
  const companion = new Stack(app, `${stack.node.id}-edge`, {
    description: 'CSP Generator: what CloudFront takes from us-east-1 (AWS WAF web ACL, Lambda@Edge)',
    env: { account: stack.account, region: 'us-east-1' },
    crossRegionReferences: true,
  });
  stack.addStackDependency(companion);
  for (const a of STACK_ACKNOWLEDGMENTS) Validations.of(companion).acknowledge(a);
  return new EdgeProtection(companion, 'Edge', { waf });
}
