// Every Lambda of the product is a ProjectFunction: one place for the defaults (runtime, architecture,
// tracing, log group and retention, source maps, bundling) and for the least-privilege table grant.
import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import {
  type BundlingOptions,
  NodejsFunction,
  type NodejsFunctionProps,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { grantTable, type TableAccess } from './table-access';

/** The runtime of every function (the latest Lambda offers; the code also runs on Node 20 locally). */
export const PROJECT_RUNTIME = Runtime.NODEJS_24_X;

const PROJECT_BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  // An ESM bundle has no `require`, yet CommonJS packages inside it still require Node built-ins.
  // Aliased names: the banner is not parsed by esbuild, so it must not collide with bundled identifiers.
  banner:
    "import { createRequire as __cspCreateRequire } from 'node:module'; const require = __cspCreateRequire(import.meta.url);",
  // Bundle the AWS SDK as well: the version in package-lock.json is the one that runs, not whatever
  // copy the Lambda runtime ships that month.
  externalModules: [],
};

export interface ProjectFunctionProps
  extends Omit<
    NodejsFunctionProps,
    'runtime' | 'entry' | 'projectRoot' | 'depsLockFilePath' | 'logGroup' | 'logRetention'
  > {
  /** The handler file (exports `handler`). */
  entry: string;
  /** The repository root: bundling runs from here with its package-lock.json. */
  sourceRoot: string;
  /** LOG_LEVEL of the function's JSON logger. */
  logLevel: string;
  /** How long CloudWatch keeps the function's logs. Default: one month. */
  logRetention?: RetentionDays;
  /** Ship source maps and read them in stack traces. Default: true. */
  sourceMaps?: boolean;
}

export class ProjectFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: ProjectFunctionProps) {
    const {
      sourceRoot,
      logLevel,
      logRetention = RetentionDays.ONE_MONTH,
      environment,
      bundling,
      sourceMaps = true,
      ...rest
    } = props;
    // An explicit log group (rather than the deprecated logRetention custom resource) so the retention
    // is a plain CloudFormation property and the group goes away with the stack.
    const logGroup = new LogGroup(scope, `${id}Logs`, {
      retention: logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    super(scope, id, {
      runtime: PROJECT_RUNTIME,
      // Graviton: cheaper per GB-second; every dependency but Chromium is plain JavaScript.
      architecture: Architecture.ARM_64,
      memorySize: 1024,
      // CloudFront gives up on an origin (the Function URLs) after 30 s, its default read timeout.
      timeout: Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      projectRoot: sourceRoot,
      depsLockFilePath: join(sourceRoot, 'package-lock.json'),
      logGroup,
      ...rest,
      environment: {
        ...(sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
        LOG_LEVEL: logLevel,
        ...environment,
      },
      bundling: { ...PROJECT_BUNDLING, sourceMap: sourceMaps, ...bundling },
    });
  }

  /** Grants the table for what the function does with it (see table-access.ts), and sets TABLE_NAME. */
  bindTable(table: ITableV2, access: TableAccess): this {
    grantTable(this, table, access);
    this.addEnvironment('TABLE_NAME', table.tableName);
    return this;
  }
}
