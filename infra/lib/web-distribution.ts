// The product's one public origin: CloudFront in front of the web app (private S3 bucket, Origin Access
// Control) and of the API on /api/* and the report endpoint on /api/uri-report, both Lambda Function URLs
// that only this distribution may call (origin access control, AWS_IAM): nothing of the product is
// reachable around CloudFront and its web ACL. Same origin for all, so cookies and the CSRF Origin check
// work without CORS.
import { existsSync } from 'node:fs';
import { ORIGIN_VERIFY_HEADER } from '@csp/shared/http/edge-headers';
import { RemovalPolicy, SecretValue } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as EdgeFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HttpVersion,
  type IOrigin,
  LambdaEdgeEventType,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { FunctionUrlAuthType, type IFunctionUrl, type IVersion } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { OwnHeaders } from './own-headers';
import { VIEWER_ADDRESS_SOURCE } from './viewer-address';

// Client-side routes (/domains/…, /admin) have no file extension: they get the app shell. Done per
// behaviour with a viewer-request function, not with distribution-wide error responses, which would also
// turn the API's own 403/404 answers into index.html.
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.indexOf('.', uri.lastIndexOf('/')) === -1) request.uri = '/index.html';
  return request;
}`;

export interface WebDistributionProps {
  /** The Lambda@Edge version that hashes bodies for origin access control (body-hash.ts). */
  bodyHash: IVersion;
  /**
   * Sent to the API as x-origin-verify on every forwarded request, so the API can refuse requests that went
   * around CloudFront. A dynamic reference: the value never appears in the template.
   */
  originVerify: ISecret;
  /** The built web app (web/dist). Uploaded only when it exists at synth time. */
  webDist: string;
  /**
   * Pins the secret version whose `current` CloudFront sends. Changing it is what makes a deploy update the
   * distribution after a rotation (an unchanged dynamic reference is not re-resolved).
   */
  originVerifyVersion?: string;
  /** An AWS WAF web ACL (CLOUDFRONT scope) in front of everything. */
  webAclArn?: string;
}

export class WebDistribution extends Construct {
  readonly distribution: Distribution;
  readonly bucket: Bucket;
  readonly headers: OwnHeaders;
  /** https://<distribution domain>: the product's public URL. */
  readonly url: string;
  /** False when web/dist was missing at synth time (run `npm run build:web`, then deploy again). */
  readonly deploysWebApp: boolean;
  private readonly viewerAddress: EdgeFunction;
  private readonly props: WebDistributionProps;

  constructor(scope: Construct, id: string, props: WebDistributionProps) {
    super(scope, id);
    this.props = props;

    this.bucket = new Bucket(this, 'Bucket', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.headers = new OwnHeaders(this, 'Headers');

    const spaRewrite = new EdgeFunction(this, 'SpaRewrite', {
      comment: 'Serve index.html for client-side routes',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(SPA_REWRITE),
    });

    this.viewerAddress = new EdgeFunction(this, 'ViewerAddress', {
      comment: 'Writes the viewer address and host for the functions (no client can set them)',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(VIEWER_ADDRESS_SOURCE),
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'CSP Generator',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      httpVersion: HttpVersion.HTTP2_AND_3,
      defaultRootObject: 'index.html',
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.headers.web,
        functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
        compress: true,
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    this.deploysWebApp = existsSync(props.webDist);
    if (this.deploysWebApp) this.deployWebApp(props.webDist);
  }

  /**
   * Sends `pathPattern` to a function's URL, uncached. CloudFront matches behaviours in the order they are
   * added: the report path before the rest of /api/*. A URL with AWS_IAM auth is reached through origin
   * access control (signed, so callable by this distribution only); a public one (auth NONE, the report
   * endpoint's opt-in) as a plain origin. Both carry the origin-verify header: the functions trust the
   * viewer headers only on requests carrying it.
   */
  routeToFunction(pathPattern: string, url: IFunctionUrl): void {
    const customHeaders = {
      [ORIGIN_VERIFY_HEADER]: SecretValue.secretsManager(this.props.originVerify.secretArn, {
        jsonField: 'current',
        ...(this.props.originVerifyVersion ? { versionId: this.props.originVerifyVersion } : {}),
      }).unsafeUnwrap(),
    };
    const origin: IOrigin =
      url.authType === FunctionUrlAuthType.AWS_IAM
        ? FunctionUrlOrigin.withOriginAccessControl(url, { customHeaders })
        : new FunctionUrlOrigin(url, { customHeaders });
    this.distribution.addBehavior(pathPattern, origin, {
      // No redirect: a redirected POST would lose its body.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Cookies, query strings and every viewer header but Host (the Function URL answers on its own Host,
      // which origin access control signs).
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: this.headers.api,
      functionAssociations: [{ function: this.viewerAddress, eventType: FunctionEventType.VIEWER_REQUEST }],
      edgeLambdas: [
        {
          functionVersion: this.props.bodyHash,
          eventType: LambdaEdgeEventType.ORIGIN_REQUEST,
          includeBody: true,
        },
      ],
      compress: true,
    });
  }

  /**
   * Two uploads: hashed assets first (immutable, cached for a year), then everything else, index.html
   * included, with no-cache so a browser revalidates the shell and never asks for assets that are gone.
   * No pruning: a tab opened before a deploy keeps loading its old hashed chunks.
   */
  private deployWebApp(webDist: string) {
    const assets = new BucketDeployment(this, 'DeployAssets', {
      sources: [Source.asset(webDist)],
      destinationBucket: this.bucket,
      exclude: ['*'],
      include: ['assets/*'],
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      prune: false,
      memoryLimit: 512,
    });
    const shell = new BucketDeployment(this, 'DeployShell', {
      sources: [Source.asset(webDist)],
      destinationBucket: this.bucket,
      exclude: ['assets/*'],
      cacheControl: [CacheControl.noCache()],
      prune: false,
      memoryLimit: 512,
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    shell.node.addDependency(assets);
  }
}
