// The handler files of the stack's functions, and how a service finds one: a handler whose file does not
// exist yet is left out of the synth with a warning, so the stack can be synthesized while one is written.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { ProjectFunctionProps } from '../project-function';

/** Handler files, relative to the repository root. Each exports `handler`. */
export const ENTRIES = {
  api: 'functions/src/api/lambda.ts',
  crawlCoordinator: 'functions/src/crawler/coordinator-lambda.ts',
  crawler: 'functions/src/crawler/lambda.ts',
  crawlWriter: 'functions/src/crawl-writer/lambda.ts',
  crawlDeadLetter: 'functions/src/queue/dead-letter-lambda.ts',
  reportIngest: 'functions/src/report-ingest/lambda.ts',
  reportConsumer: 'functions/src/report-ingest/consumer-lambda.ts',
  scheduleDispatcher: 'functions/src/watch/dispatcher-lambda.ts',
} as const;
export type FunctionName = keyof typeof ENTRIES;

/** What every function of the stack shares (the repository root, the log level). */
export type FunctionDefaults = Pick<ProjectFunctionProps, 'sourceRoot' | 'logLevel'>;

/** The absolute path of a handler, or undefined (with a synth warning on `scope`) while its file does not exist. */
export function handlerEntry(scope: Construct, name: FunctionName, sourceRoot: string): string | undefined {
  const path = join(sourceRoot, ENTRIES[name]);
  if (existsSync(path)) return path;
  Annotations.of(scope).addWarningV2(
    `csp:missing-entry:${name}`,
    `${ENTRIES[name]} does not exist: the ${name} function is left out of this synth`,
  );
  return undefined;
}
