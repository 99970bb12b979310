// A throwaway repository root for stack tests: stub handlers for the entries a test asks for, a lock file
// and the functions package.json the crawler's nodeModules are looked up in. Bundling is skipped in
// tests, so the stubs are never built; this keeps the tests independent of handlers still being written.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { afterAll } from 'vitest';
import { ENTRIES, type FunctionName } from '../lib/csp-generator-stack';

/** Every function of the stack. */
export const ALL_FUNCTIONS = Object.keys(ENTRIES) as FunctionName[];

export function makeSourceRoot(entries: FunctionName[]): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'csp-infra-'));
  writeFileSync(join(root, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: {} }));
  mkdirSync(join(root, 'functions'));
  writeFileSync(
    join(root, 'functions', 'package.json'),
    JSON.stringify({ dependencies: { '@sparticuz/chromium': '^147.0.0', 'puppeteer-core': '^24.0.0' } }),
  );
  for (const name of entries) {
    const file = join(root, ENTRIES[name]);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, 'export const handler = async () => undefined;\n');
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The apps' output directories: CDK makes one in the system's temp directory per App and never removes it. */
const outdirs: string[] = [];
// Registered as the test file imports this module, so it runs after that file's tests.
afterAll(() => {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * An App with the repository's cdk.json context (feature flags) and no asset bundling. CDK's built-in
 * CloudFormation validation (a WebAssembly rule engine, several seconds) is off unless asked for.
 */
export function testApp({ validate = false } = {}): App {
  const outdir = mkdtempSync(join(tmpdir(), 'cdk.out'));
  outdirs.push(outdir);
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return new App({
    outdir,
    context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: validate,
  });
}
