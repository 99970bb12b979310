// The CDK app (cdk.json: `npx tsx infra/bin/app.ts`). `npm run synth` checks it; `npx cdk deploy` ships it.
// Context: `-c logLevel=debug` sets LOG_LEVEL of every function; `-c originVerifyVersion=<id>` is the last
// step of rotating the origin-verify secret (npm run rotate:origin-verify prints it); `-c waf=true` puts AWS
// WAF with rate-based rules in front of CloudFront (the stack must then be in us-east-1);
// `-c reportFunctionUrl=false` takes reports through CloudFront only (no Function URL).
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
  logLevel: typeof logLevel === 'string' ? logLevel : 'info',
  ...(typeof originVerifyVersion === 'string' ? { originVerifyVersion } : {}),
  waf: waf === true || waf === 'true',
  reportFunctionUrl: !(reportFunctionUrl === false || reportFunctionUrl === 'false'),
});
