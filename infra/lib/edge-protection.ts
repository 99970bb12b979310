// What CloudFront needs from us-east-1: the web ACL (AWS WAF's CloudFront scope) and the Lambda@Edge
// function that lets browsers' POST bodies through origin access control (body-hash.ts). Created in the
// main stack when that is in us-east-1, else in a small companion stack there (services/web-hosting.ts).
import { Duration, Stack, Token } from 'aws-cdk-lib';
import { CompositePrincipal, ManagedPolicy, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Code, Function as LambdaFunction, Runtime, type Version } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { BODY_HASH_SOURCE } from './body-hash';
import { acknowledge } from './nag-acknowledgments';
import { WebAcl } from './web-acl';

/**
 * Lambda@Edge runs a subset of Lambda's runtimes, and replicas of a function cannot move runtime in place
 * quickly; Node.js 22 is the newest we know it runs. The function is a few lines of plain JavaScript.
 */
export const BODY_HASH_RUNTIME = Runtime.NODEJS_22_X;

export interface EdgeProtectionProps {
  /** AWS WAF with per-client rate rules. Default: true. */
  waf: boolean;
}

export class EdgeProtection extends Construct {
  readonly webAcl: WebAcl | undefined;
  /** The published version CloudFront associates (Lambda@Edge takes a version, never $LATEST). */
  readonly bodyHash: Version;

  constructor(scope: Construct, id: string, props: EdgeProtectionProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    if (!Token.isUnresolved(region) && region !== 'us-east-1') {
      throw new Error(`CloudFront's web ACL and Lambda@Edge functions live in us-east-1, not ${region}.`);
    }
    if (props.waf) this.webAcl = new WebAcl(this, 'Waf');

    // Lambda@Edge assumes the role from edgelambda.amazonaws.com as well; it writes only its own logs.
    const role = new Role(this, 'BodyHashRole', {
      assumedBy: new CompositePrincipal(
        new ServicePrincipal('lambda.amazonaws.com'),
        new ServicePrincipal('edgelambda.amazonaws.com'),
      ),
      managedPolicies: [ManagedPolicy.fromAwsManagedPolicyName('service-role/AWSLambdaBasicExecutionRole')],
    });
    const fn = new LambdaFunction(this, 'BodyHash', {
      description: 'CloudFront origin request: x-amz-content-sha256 of the body, for origin access control',
      runtime: BODY_HASH_RUNTIME,
      handler: 'index.handler',
      code: Code.fromInline(BODY_HASH_SOURCE),
      role,
      memorySize: 128,
      timeout: Duration.seconds(5),
    });
    this.bodyHash = fn.currentVersion;
    acknowledge(
      fn,
      'AwsSolutions-L1',
      'Lambda@Edge supports fewer runtimes than regional Lambda: Node.js 22 is the newest it is known to run; the function is a few lines of plain JavaScript with no dependencies.',
    );
  }
}
