// cdk-nag's AwsSolutions pack runs on the stack in the tests (infra/test/nag.test.ts). What remains after
// fixing what could be fixed is acknowledged here, one rule at a time, each with the reason it stands.
import { type Stack, Token, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

interface Acknowledgment {
  id: string;
  reason: string;
}

/** Findings that hold for the whole stack. */
export const STACK_ACKNOWLEDGMENTS: readonly Acknowledgment[] = [
  {
    id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    reason:
      "AWSLambdaBasicExecutionRole is Lambda's own managed policy for writing the function's CloudWatch logs (logs:CreateLogGroup, CreateLogStream, PutLogEvents); nothing else.",
  },
  {
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions, so their resource is * by AWS design.',
  },
  {
    id: 'AwsSolutions-SMG4',
    reason:
      'The app secret holds keys whose rotation is a product decision (a new sessionSecret signs everyone out; a new totpEncryptionKey makes 2FA set-ups unreadable); the origin-verify secret is rotated without downtime by npm run rotate:origin-verify (README).',
  },
  {
    id: 'AwsSolutions-S1',
    reason:
      'Both buckets are private and read only by CloudFront (the built web app) and the crawler (its own crawl blobs); S3 server access logs would record nothing a user did.',
  },
  {
    id: 'AwsSolutions-CFR1',
    reason: 'A public product for websites anywhere: no geographic restriction.',
  },
  {
    id: 'AwsSolutions-CFR2',
    reason:
      'AWS WAF is on by default (per-IP rate rules on every public path); only the explicit opt-out -c waf=false leaves it out, and the README states what that risks. The application keeps its own per-client limits and proof-of-work either way.',
  },
  {
    id: 'AwsSolutions-CFR3',
    reason:
      "CloudFront access logs would keep every visitor's full IP address; the functions log what they need with truncated addresses.",
  },
  {
    id: 'AwsSolutions-CFR4',
    reason:
      "The distribution uses CloudFront's default *.cloudfront.net certificate, for which the minimum protocol cannot be raised; HSTS and the browsers' own minimums apply. With a custom domain, set minimumProtocolVersion TLSv1.2_2021.",
  },
];

/** A finding on one resource, with its reason. */
export function acknowledge(scope: IConstruct, id: string, reason: string): void {
  Validations.of(scope).acknowledge({ id, reason });
}

/**
 * CDK's BucketDeployment handler (it copies the built web app from CDK's asset bucket into the web bucket
 * at deploy time): its runtime and grants are CDK's own, and no user input ever reaches it.
 */
const DEPLOYMENT_HANDLER_REASON =
  "CDK's own BucketDeployment handler: it runs only during a deployment, copying the built web app from CDK's asset bucket to the web bucket; its runtime and S3 grants (read the asset, write the destination) are set by CDK.";
const DEPLOYMENT_HANDLER_FINDINGS = [
  'AwsSolutions-L1',
  'AwsSolutions-IAM5[Action::s3:GetBucket*]',
  'AwsSolutions-IAM5[Action::s3:GetObject*]',
  'AwsSolutions-IAM5[Action::s3:List*]',
  'AwsSolutions-IAM5[Action::s3:Abort*]',
  'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
];

export function acknowledgeStackFindings(stack: Stack, web: { bucketLogicalId: string }): void {
  for (const a of STACK_ACKNOWLEDGMENTS) Validations.of(stack).acknowledge(a);
  for (const handler of stack.node.children.filter((c) =>
    c.node.id.startsWith('Custom::CDKBucketDeployment'),
  )) {
    // With the account and region known at synth (deploys outside us-east-1), CDK's asset bucket is named.
    const assets = Token.isUnresolved(stack.account)
      ? []
      : [
          `AwsSolutions-IAM5[Resource::arn:${stack.partition}:s3:::cdk-hnb659fds-assets-${stack.account}-${stack.region}/*]`,
        ];
    for (const id of [
      ...DEPLOYMENT_HANDLER_FINDINGS,
      ...assets,
      `AwsSolutions-IAM5[Resource::<${web.bucketLogicalId}.Arn>/*]`,
    ]) {
      acknowledge(handler, id, DEPLOYMENT_HANDLER_REASON);
    }
  }
}
