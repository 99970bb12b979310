// The CDK app (cdk.json: `npx tsx infra/bin/app.ts`). `npm run synth` checks it; `npx cdk deploy` ships it.
// Context: `-c logLevel=debug` sets LOG_LEVEL of every function; `-c originVerifyVersion=<id>` is the last
// step of rotating the origin-verify secret (npm run rotate:origin-verify prints it); `-c waf=false` leaves
// out AWS WAF's per-client rate rules (README says what that risks); `-c reportFunctionUrl=true` gives the
// report function a public Function URL, named in policies, instead of taking reports through CloudFront.
// The account and region are the CLI's (AWS_PROFILE, AWS_REGION): outside us-east-1, CloudFront's web ACL
// and Lambda@Edge function go to a companion stack there, CspGenerator-edge.
import { fileURLToPath } from 'node:url';
import { App } from 'aws-cdk-lib';
import { CspGeneratorStack } from '../lib/csp-generator-stack';

const app = new App();
const logLevel: unknown = app.node.tryGetContext('logLevel');
const originVerifyVersion: unknown = app.node.tryGetContext('originVerifyVersion');
const waf: unknown = app.node.tryGetContext('waf');
const reportFunctionUrl: unknown = app.node.tryGetContext('reportFunctionUrl');

new CspGeneratorStack(app, 'CspGenerator', {
  description:
    'CSP Generator: crawls a site with headless Chromium and generates its Content Security Policy',
  sourceRoot: fileURLToPath(new URL('../..', import.meta.url)),
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  logLevel: typeof logLevel === 'string' ? logLevel : 'info',
  ...(typeof originVerifyVersion === 'string' ? { originVerifyVersion } : {}),
  waf: !(waf === false || waf === 'false'),
  reportFunctionUrl: reportFunctionUrl === true || reportFunctionUrl === 'true',
});
