// cdk-nag's AwsSolutions pack on the whole stack: the synth fails on any finding that is neither fixed nor
// acknowledged with a reason (infra/lib/nag-acknowledgments.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { CspGeneratorStack } from '../lib/csp-generator-stack';
import { STACK_ACKNOWLEDGMENTS } from '../lib/nag-acknowledgments';
import { ALL_FUNCTIONS, makeSourceRoot, testApp } from './source-root';

// Deployed in us-east-1 (or region left to deploy time): one stack; elsewhere, the companion stack in
// us-east-1 with the web ACL and the Lambda@Edge function is checked too.
describe.each([
  { where: 'one stack', env: undefined },
  {
    where: 'outside us-east-1, with its companion stack',
    env: { region: 'eu-west-1', account: '123456789012' },
  },
])('cdk-nag AwsSolutions, $where', ({ env }) => {
  it('leaves no unacknowledged finding, and every acknowledgment gives a reason', () => {
    const source = makeSourceRoot(ALL_FUNCTIONS);
    const app = testApp();
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    // With a built web app, so the upload's own resources are checked too.
    const webDist = join(source.root, 'web', 'dist');
    mkdirSync(join(webDist, 'assets'), { recursive: true });
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>CSP Generator</title>');
    new CspGeneratorStack(app, 'Nag', { sourceRoot: source.root, webDist, ...(env ? { env } : {}) });
    let failure = '';
    try {
      app.synth();
    } catch (err) {
      failure = (err as Error).message;
    }
    source.remove();
    const findings = [...new Set(failure.match(/AwsSolutions-[A-Z0-9]+(\[[^\]]*\])?/g) ?? [])];
    expect(findings).toEqual([]);
    expect(failure).toBe('');
    for (const a of STACK_ACKNOWLEDGMENTS) expect(a.reason.length, a.id).toBeGreaterThan(40);
  });
});
