import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { OWN_POLICY } from '@csp/shared/csp/own-policy';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_HASH_HEADER, BODY_HASH_SOURCE } from '../lib/body-hash';
import { CspGeneratorStack, type FunctionName } from '../lib/csp-generator-stack';
import { OwnHeaders } from '../lib/own-headers';
import { VIEWER_ADDRESS_SOURCE } from '../lib/viewer-address';
import { ALL_FUNCTIONS, makeSourceRoot, testApp } from './source-root';

const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

function synth(entries: FunctionName[], opts: { validate?: boolean } = {}) {
  const source = makeSourceRoot(entries);
  const stack = new CspGeneratorStack(testApp(opts), 'Test', { sourceRoot: source.root });
  const template = Template.fromStack(stack);
  source.remove();
  const logicalId = (name: FunctionName) => {
    const fn = stack.functions[name];
    if (!fn) throw new Error(`no ${name} function`);
    return stack.getLogicalId(fn.node.defaultChild as CfnFunction);
  };
  return { stack, template, logicalId };
}

type Resource = { Properties: Record<string, unknown> };

describe('CspGeneratorStack with every handler present', () => {
  let s: ReturnType<typeof synth>;
  beforeAll(() => {
    s = synth(ALL_FUNCTIONS);
  });

  it('has one table: pk/sk, three GSIs with projection ALL, TTL on expiresAt, on demand, PITR, retained', () => {
    s.template.resourceCountIs('AWS::DynamoDB::GlobalTable', 1);
    const gsis = ['gsi1', 'gsi2', 'gsi3'];
    s.template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      Properties: Match.objectLike({
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith(
          ['pk', 'sk', ...gsis.flatMap((g) => [`${g}pk`, `${g}sk`])].map((name) => ({
            AttributeName: name,
            AttributeType: 'S',
          })),
        ),
        GlobalSecondaryIndexes: gsis.map((g) => ({
          IndexName: g,
          KeySchema: [
            { AttributeName: `${g}pk`, KeyType: 'HASH' },
            { AttributeName: `${g}sk`, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
        Replicas: [
          Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } }),
        ],
      }),
    });
  });

  it('feeds the crawl coordinator one message at a time and reports partial batch failures', () => {
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.logicalId('crawlCoordinator') },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^CrawlQueue'), 'Arn'] },
    });
  });

  it('moves a crawl message to the dead-letter queue after 3 receives, which its own function drains', () => {
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 3 }),
      // 6 × the crawler's 15 minutes (crawl-queue.ts says why).
      VisibilityTimeout: 5400,
      SqsManagedSseEnabled: true,
    });
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.logicalId('crawlDeadLetter') },
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^CrawlDeadLetterQueue'), 'Arn'] },
    });
  });

  it('never lets the crawler or the API reach private targets', () => {
    for (const name of ['crawler', 'api'] as const) {
      const fn = s.template.toJSON().Resources[s.logicalId(name)] as Resource;
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(env.ALLOW_PRIVATE_TARGETS, name).toBe('false');
    }
  });

  it('sizes the crawler for Chromium: x86-64, 15 minutes, ≥ 2 GB memory, ≥ 1 GB /tmp', () => {
    const crawler = s.template.toJSON().Resources[s.logicalId('crawler')] as Resource;
    expect(crawler.Properties.Architectures).toEqual(['x86_64']);
    expect(crawler.Properties.Timeout).toBe(900);
    expect(crawler.Properties.MemorySize).toBeGreaterThanOrEqual(2048);
    expect((crawler.Properties.EphemeralStorage as { Size: number }).Size).toBeGreaterThanOrEqual(1024);
    expect(Object.keys((crawler.Properties.Environment as { Variables: object }).Variables).sort()).toEqual([
      'ALLOW_PRIVATE_TARGETS',
      'BLOB_BUCKET',
      'CRAWL_WRITER_FUNCTION',
      'LOG_LEVEL',
      'NODE_OPTIONS',
    ]);
  });

  it('runs every Lambda on nodejs24.x, but the Lambda@Edge body hash on the newest Lambda@Edge runs', () => {
    const functions = Object.entries(s.template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThanOrEqual(6);
    for (const [id, fn] of functions) {
      expect((fn as Resource).Properties.Runtime, id).toBe(
        id.startsWith('EdgeBodyHash') ? 'nodejs22.x' : 'nodejs24.x',
      );
    }
  });

  it('takes reports through CloudFront at a Function URL only CloudFront may call, queues and batches them', () => {
    // Not public: AWS_IAM, reached by origin access control (signed by this distribution only).
    s.template.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [s.logicalId('reportIngest'), 'Arn'] },
      AuthType: 'AWS_IAM',
    });
    const urls = Object.values(s.template.findResources('AWS::Lambda::Url')) as Resource[];
    expect(urls.map((u) => u.Properties.AuthType)).toEqual(['AWS_IAM', 'AWS_IAM']);
    // Nothing grants a Function URL to anyone but CloudFront, for this distribution.
    const permissions = Object.values(s.template.findResources('AWS::Lambda::Permission')) as Resource[];
    const urlGrants = permissions.filter((p) =>
      String(p.Properties.Action).startsWith('lambda:InvokeFunction'),
    );
    expect(urlGrants.length).toBe(4); // InvokeFunctionUrl and InvokeFunction, for the API and the ingest
    for (const p of urlGrants) {
      expect(p.Properties.Principal).toBe('cloudfront.amazonaws.com');
      expect(JSON.stringify(p.Properties.SourceArn)).toMatch(/:distribution\/.*WebDistribution/);
    }
    // Policies name CloudFront's /api/uri-report: no REPORT_ENDPOINT_ORIGIN.
    const api = s.template.toJSON().Resources[s.logicalId('api')] as Resource;
    const apiEnv = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(apiEnv.REPORT_ENDPOINT_ORIGIN).toBeUndefined();
    s.template.hasOutput('ReportEndpoint', {
      Value: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp('/api/uri-report$')])] },
    });
    const ingest = s.template.toJSON().Resources[s.logicalId('reportIngest')] as Resource;
    const ingestEnv = (ingest.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(ingestEnv)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'REPORT_QUEUE_URL', 'ORIGIN_VERIFY_SECRET_ARN']),
    );
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.logicalId('reportConsumer') },
      BatchSize: 1000,
      MaximumBatchingWindowInSeconds: 5,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ReportsQueue'), 'Arn'] },
    });
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: Match.objectLike({ maxReceiveCount: 5 }),
      VisibilityTimeout: 720,
    });
  });

  it('gives reports a public Function URL, named in policies, only when the deployment opts in', () => {
    const source = makeSourceRoot(['api', 'reportIngest', 'reportConsumer']);
    const stack = new CspGeneratorStack(testApp(), 'PublicUrl', {
      sourceRoot: source.root,
      reportFunctionUrl: true,
    });
    const t = Template.fromStack(stack);
    source.remove();
    t.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^ReportIngest'), 'Arn'] },
      AuthType: 'NONE',
    });
    // The API's URL stays private.
    t.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Api'), 'Arn'] },
      AuthType: 'AWS_IAM',
    });
    const api = Object.values(t.findResources('AWS::Lambda::Function')).find(
      (r) => (r as Resource).Properties.Description === 'CSP Generator API (Hono)',
    ) as Resource;
    const env = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(env.REPORT_ENDPOINT_ORIGIN)).toContain('ReportIngestFunctionUrl');
    // CloudFront's /api/uri-report still reaches it, as a plain origin (no origin access control).
    const dist = Object.values(t.findResources('AWS::CloudFront::Distribution'))[0] as Resource;
    const config = dist.Properties.DistributionConfig as {
      CacheBehaviors: { PathPattern: string; TargetOriginId: string }[];
      Origins: { Id: string; OriginAccessControlId?: unknown }[];
    };
    const report = config.CacheBehaviors.find((b) => b.PathPattern === '/api/uri-report')!;
    expect(config.Origins.find((o) => o.Id === report.TargetOriginId)!.OriginAccessControlId).toBeUndefined();
  });

  /** Every statement of the policies attached to one function's role. */
  const statementsOf = (name: FunctionName) => {
    const role = (s.template.findResources('AWS::Lambda::Function')[s.logicalId(name)] as Resource).Properties
      .Role as { 'Fn::GetAtt': [string, string] };
    return Object.values(s.template.findResources('AWS::IAM::Policy'))
      .filter((p) => JSON.stringify((p as Resource).Properties.Roles).includes(role['Fn::GetAtt'][0]))
      .flatMap(
        (p) =>
          (p as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument
            .Statement,
      );
  };
  type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, unknown> };
  const actions = (st: Statement) => [st.Action].flat();

  it('grants no wildcard action: every function gets only the calls it makes, never Scan', () => {
    for (const p of Object.values(s.template.findResources('AWS::IAM::Policy'))) {
      for (const st of (p as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties
        .PolicyDocument.Statement) {
        for (const a of actions(st)) expect(a === '*' || a.endsWith(':*'), a).toBe(false);
      }
    }
    // Queues and secrets: the one call each makes.
    const sqsAndSecrets = (name: FunctionName) =>
      [...new Set(statementsOf(name).flatMap(actions))]
        .filter((a) => /^(sqs|secretsmanager):/.test(a))
        .sort();
    expect(sqsAndSecrets('api')).toEqual(['secretsmanager:GetSecretValue', 'sqs:SendMessage']);
    expect(sqsAndSecrets('reportIngest')).toEqual(['secretsmanager:GetSecretValue', 'sqs:SendMessage']);
    expect(
      sqsAndSecrets('crawlCoordinator').filter(
        (a) => !a.startsWith('sqs:Receive') && !/Delete|Visibility|GetQueue/.test(a),
      ),
    ).toEqual(['sqs:SendMessage']);
    expect(sqsAndSecrets('crawler')).toEqual([]);
    // Who may send to which queue: the API to the crawl queue and (clear messages) the report queue; the
    // report consumer to its own queue only (a clear with more to delete goes on in a message of its own).
    // (CDK merges one action's statements: the resources are listed together.)
    const sendsTo = (name: FunctionName) =>
      statementsOf(name)
        .filter((st) => actions(st).includes('sqs:SendMessage'))
        .flatMap((st) => [st.Resource].flat())
        .map((r) => (r as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0].replace(/[0-9A-F]{8}$/, ''))
        .sort();
    expect(sendsTo('api')).toEqual(['CrawlQueue', 'ReportsQueue']);
    expect(sendsTo('reportConsumer')).toEqual(['ReportsQueue']);
    expect(sendsTo('reportIngest')).toEqual(sendsTo('reportConsumer'));
    for (const name of ['api', 'reportConsumer'] as const) {
      const fn = s.template.toJSON().Resources[s.logicalId(name)] as Resource;
      const env = (fn.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
      expect(JSON.stringify(env.REPORT_QUEUE_URL), name).toMatch(/"Ref":"ReportsQueue/);
    }
    for (const name of ALL_FUNCTIONS) {
      const all = statementsOf(name).flatMap(actions);
      expect(all.length, name).toBeGreaterThan(0);
      expect(
        all.filter((a) => a.includes('*')),
        name,
      ).toEqual([]);
      expect(all, name).not.toContain('dynamodb:Scan');
    }
  });

  it("confines the crawler's own role: invoke the crawl writer, its checkpoints in the bucket, its traces — nothing else", () => {
    const statements = statementsOf('crawler');
    const logicalIdOf = (name: FunctionName) => s.logicalId(name);
    // Exactly these statements: no table, no queue, no secret, no key, no other function, no bucket listing.
    expect([...new Set(statements.flatMap(actions))].sort()).toEqual([
      'lambda:InvokeFunction',
      's3:DeleteObject',
      's3:GetObject',
      's3:PutObject',
      'xray:PutTelemetryRecords',
      'xray:PutTraceSegments',
    ]);
    const using = (prefix: string) =>
      statements.filter((st) => actions(st).some((a) => a.startsWith(prefix)));
    for (const st of using('lambda:')) {
      expect(st.Resource).toEqual({ 'Fn::GetAtt': [logicalIdOf('crawlWriter'), 'Arn'] });
    }
    for (const st of using('s3:')) expect(JSON.stringify(st.Resource)).toMatch(/"\/crawls\/\*"\]\]\}$/);
    for (const st of statements) expect(st.Condition).toBeUndefined();
    // Its role's managed policies: the basic execution role (its own logs) only.
    const role = s.template.toJSON().Resources[
      (
        (s.template.findResources('AWS::Lambda::Function')[s.logicalId('crawler')] as Resource).Properties
          .Role as {
          'Fn::GetAtt': [string, string];
        }
      )['Fn::GetAtt'][0]
    ] as Resource;
    expect(JSON.stringify(role.Properties.ManagedPolicyArns)).toMatch(/AWSLambdaBasicExecutionRole/);
    expect((role.Properties.ManagedPolicyArns as unknown[]).length).toBe(1);
    // Nothing delivers to it but the coordinator: no event source, and only the coordinator may invoke it.
    const mappings = Object.values(s.template.findResources('AWS::Lambda::EventSourceMapping'));
    expect(JSON.stringify(mappings)).not.toContain(`"${s.logicalId('crawler')}"`);
    const invokers = ALL_FUNCTIONS.filter((name) =>
      statementsOf(name).some(
        (st) =>
          actions(st).includes('lambda:InvokeFunction') &&
          JSON.stringify(st.Resource).includes(`"${s.logicalId('crawler')}"`),
      ),
    );
    expect(invokers).toEqual(['crawlCoordinator']);
  });

  it('confines the crawl coordinator and writer to the key prefixes they touch, with no secret', () => {
    // The coordinator: no index. The writer reads a domain's saved configurations through an index (drift)
    // and writes only the base table, under its own prefixes (not DOMAIN#).
    const reads = {
      crawlCoordinator: ['ANALYSIS#*', 'RUNSLOTS#*', 'CRAWLQUOTA#*'],
      crawlWriter: [
        'ANALYSIS#*',
        'CRAWLQUOTA#*',
        'DOMAINRUN#*',
        'ACHIEVE#*',
        'WATCHRUN#*',
        'DOMAIN#*',
        'SCRIPTS#*',
        'SCRIPTHIST#*',
        'ALERT#*',
      ],
    };
    const writes = {
      crawlCoordinator: reads.crawlCoordinator,
      crawlWriter: [
        'ANALYSIS#*',
        'CRAWLQUOTA#*',
        'DOMAINRUN#*',
        'ACHIEVE#*',
        'WATCHRUN#*',
        'SCRIPTS#*',
        'SCRIPTHIST#*',
        'ALERT#*',
      ],
    };
    for (const name of ['crawlCoordinator', 'crawlWriter'] as const) {
      const statements = statementsOf(name);
      const dynamo = statements.filter((st) => actions(st).some((a) => a.startsWith('dynamodb:')));
      expect(dynamo.length, name).toBeGreaterThan(0);
      for (const st of dynamo) {
        const writing = actions(st).some((a) => /Put|Update|Delete|Write/.test(a));
        expect(st.Condition, name).toEqual({
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': writing ? writes[name] : reads[name] },
        });
        if (writing || name === 'crawlCoordinator') {
          expect(JSON.stringify(st.Resource), name).not.toContain('/index/');
        }
      }
      expect(
        statements.flatMap(actions).filter((a) => /^(secretsmanager|kms|s3):/.test(a)),
        name,
      ).toEqual([]);
    }
    // The writer is invoked, never invokes; it reads no queue.
    expect(
      statementsOf('crawlWriter')
        .flatMap(actions)
        .filter((a) => /^(lambda|sqs):/.test(a)),
    ).toEqual([]);
    // Every other function but the API is confined too.
    for (const name of ['crawlDeadLetter', 'reportIngest', 'reportConsumer'] as const) {
      for (const st of statementsOf(name).filter((x) => actions(x).some((a) => a.startsWith('dynamodb:')))) {
        expect(st.Condition, name).toBeDefined();
      }
    }
    expect(
      statementsOf('reportIngest')
        .flatMap(actions)
        .filter((a) => /Put|Update|Delete|Write/.test(a) && a.startsWith('dynamodb:')),
    ).toEqual([]);
    // The report consumer reads domains and crawls but writes only its report items, the clearing's job
    // item (clearing deletes the report items), achievements, the scripts reports name to the domain's
    // script inventory (with their history rows), the alerts it raises, and the field hashes it counts.
    const consumerWrites = statementsOf('reportConsumer').filter((st) =>
      actions(st).some((a) => a.startsWith('dynamodb:') && /Put|Update|Delete|Write/.test(a)),
    );
    expect(consumerWrites).toHaveLength(1);
    expect(consumerWrites[0]!.Condition).toEqual({
      'ForAllValues:StringLike': {
        'dynamodb:LeadingKeys': [
          'REPORT#*',
          'RCOUNT#*',
          'RSTATS#*',
          'RPOLICY#*',
          'RGUARD#*',
          'RSUSP#*',
          'RCLEAR#*',
          'ACHIEVE#*',
          'ALERT#*',
          'SCRIPTS#*',
          'SCRIPTHIST#*',
          'FIELDHASH#*',
        ],
      },
    });
  });

  it('gives the app secret only to the API and the watch tick (webhook secrets), through SECRETS_ARN', () => {
    const api = s.template.toJSON().Resources[s.logicalId('api')] as Resource;
    const env = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'TABLE_NAME',
        'CRAWL_QUEUE_URL',
        'SECRETS_ARN',
        'ORIGIN_VERIFY_SECRET_ARN',
        'LOG_LEVEL',
      ]),
    );
    const readers = Object.values(s.template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p).includes('secretsmanager:GetSecretValue'),
    );
    // The API's role and the seeder's (the API reads its secrets in one policy), the ingest function's
    // for the origin-verify value only, and the watch tick's for the app secret and the mail secret
    // (infra/test/mail.test.ts).
    expect(readers).toHaveLength(4);
    const tickReader = readers.find((p) => JSON.stringify(p).includes('ScheduleDispatcherServiceRole'));
    const tickStatements = (
      tickReader as {
        Properties: { PolicyDocument: { Statement: { Action: string[]; Resource: unknown }[] } };
      }
    ).Properties.PolicyDocument.Statement.filter((st) => st.Action.includes('secretsmanager:GetSecretValue'));
    expect(tickStatements.map((st) => JSON.stringify(st.Resource))).toEqual([
      expect.stringMatching(/^\[\{"Ref":"MailSecret[^"]*"\},\{"Ref":"SecretsSecret[^"]*"\}\]$/),
    ]);
    const ingestReader = readers.find((p) => JSON.stringify(p).includes('ReportIngestServiceRole'));
    const statements = (
      ingestReader as {
        Properties: { PolicyDocument: { Statement: { Action: string[]; Resource: unknown }[] } };
      }
    ).Properties.PolicyDocument.Statement.filter((st) => st.Action.includes('secretsmanager:GetSecretValue'));
    expect(statements.map((st) => JSON.stringify(st.Resource))).toEqual([
      expect.stringMatching(/^\{"Ref":"OriginVerify/),
    ]);
  });

  it('serves the web app with our own strict CSP, HSTS for two years, nosniff, DENY and a referrer policy', () => {
    s.template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: {
            ContentSecurityPolicy: Match.stringLikeRegexp("frame-ancestors 'none'"),
            Override: true,
          },
          StrictTransportSecurity: {
            AccessControlMaxAgeSec: 63072000,
            IncludeSubdomains: true,
            Override: true,
          },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
        }),
      }),
    });
    for (const policy of Object.values(s.template.findResources('AWS::CloudFront::ResponseHeadersPolicy'))) {
      const csp = JSON.stringify(policy);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('sends /api/uri-report and /api/* uncached to Function URLs by origin access control, the rest to S3', () => {
    const dist = Object.values(s.template.findResources('AWS::CloudFront::Distribution'))[0] as Resource;
    const config = dist.Properties.DistributionConfig as {
      CacheBehaviors: {
        PathPattern: string;
        TargetOriginId: string;
        CachePolicyId: string;
        OriginRequestPolicyId: string;
        AllowedMethods: string[];
        LambdaFunctionAssociations: { EventType: string; IncludeBody: boolean; LambdaFunctionARN: unknown }[];
      }[];
      Origins: { Id: string; DomainName: unknown; OriginAccessControlId?: unknown }[];
    };
    // In this order: CloudFront takes the first match.
    expect(config.CacheBehaviors.map((b) => b.PathPattern)).toEqual(['/api/uri-report', '/api/*']);
    const targets = { '/api/uri-report': 'ReportIngestFunctionUrl', '/api/*': 'ApiFunctionUrl' } as const;
    for (const b of config.CacheBehaviors) {
      expect(b.CachePolicyId).toBe(CACHING_DISABLED);
      expect(b.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(b.AllowedMethods).toContain('POST');
      const origin = config.Origins.find((o) => o.Id === b.TargetOriginId)!;
      expect(JSON.stringify(origin.DomainName)).toContain(
        `"${targets[b.PathPattern as keyof typeof targets]}`,
      );
      expect(origin.OriginAccessControlId, b.PathPattern).toBeDefined();
      // Browsers' POST bodies get the hash SigV4 needs before CloudFront signs.
      expect(b.LambdaFunctionAssociations).toEqual([
        expect.objectContaining({ EventType: 'origin-request', IncludeBody: true }),
      ]);
    }
    s.template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({
        OriginAccessControlOriginType: 'lambda',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      }),
    });
    // CloudFront proves itself to the functions with a secret header, resolved at deploy (never in the template).
    const origins = JSON.stringify(s.template.findResources('AWS::CloudFront::Distribution'));
    expect(origins).toMatch(
      /"HeaderName":"x-origin-verify","HeaderValue":\{"Fn::Join":\["",\["\{\{resolve:secretsmanager:/,
    );
  });

  it('has no API Gateway, so no execute-api endpoint around CloudFront and its web ACL', () => {
    // The brief of an HTTP API with DisableExecuteApiEndpoint: CloudFront could then not reach it either
    // without a custom domain; the API is a Function URL that only the distribution may call instead.
    for (const type of ['AWS::ApiGatewayV2::Api', 'AWS::ApiGateway::RestApi']) {
      s.template.resourceCountIs(type, 0);
    }
  });

  it('hashes request bodies at the edge as origin access control needs, whatever the client sent', () => {
    const exports: { handler?: (e: unknown) => Promise<Record<string, unknown>> } = {};
    new Function('exports', 'require', BODY_HASH_SOURCE)(exports, createRequire(import.meta.url));
    const run = (request: Record<string, unknown>) =>
      exports.handler!({ Records: [{ cf: { request: { headers: {}, ...request } } }] });
    const body = '{"username":"ada","password":"x"}';
    const sha = (b: string) => createHash('sha256').update(b).digest('hex');
    const signed = (await_: Record<string, unknown>) =>
      (await_.headers as Record<string, { value: string }[]>)[BODY_HASH_HEADER]![0]!.value;
    return (async () => {
      const post = await run({
        method: 'POST',
        headers: { [BODY_HASH_HEADER]: [{ key: BODY_HASH_HEADER, value: 'forged' }] },
        body: {
          inputTruncated: false,
          action: 'read-only',
          encoding: 'base64',
          data: Buffer.from(body).toString('base64'),
        },
      });
      expect(signed(post)).toBe(sha(body));
      expect(signed(await run({ method: 'GET' }))).toBe(sha(''));
      const cut = await run({ method: 'POST', body: { inputTruncated: true, encoding: 'base64', data: '' } });
      expect(cut.status).toBe('413');
      s.template.hasResourceProperties('AWS::Lambda::Function', {
        Code: { ZipFile: BODY_HASH_SOURCE },
        Handler: 'index.handler',
      });
    })();
  });

  it("serves our own strict CSP within CloudFront's 1,783-character cap, and refuses a longer one", () => {
    const policies = Object.values(
      s.template.findResources('AWS::CloudFront::ResponseHeadersPolicy'),
    ) as Resource[];
    expect(policies).toHaveLength(2);
    for (const p of policies) {
      const config = p.Properties.ResponseHeadersPolicyConfig as {
        SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string } };
      };
      const csp = config.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;
      expect(csp).toBe(OWN_POLICY);
      expect(csp.length).toBeLessThanOrEqual(1783);
    }
    const stack = new Stack(testApp(), 'TooLong');
    expect(
      () => new OwnHeaders(stack, 'Headers', { policy: `default-src 'self'; ${'x'.repeat(1800)}` }),
    ).toThrow(/at most 1783/);
  });

  it('gives the functions a viewer address and host no client can forge: a viewer-request function writes them', () => {
    // The function as CloudFront runs it: a forged header of the same name is replaced.
    const handler = new Function(`${VIEWER_ADDRESS_SOURCE}; return handler;`)() as (e: unknown) => {
      headers: Record<string, { value: string }>;
    };
    const out = handler({
      viewer: { ip: '198.51.100.23' },
      request: {
        headers: {
          'x-csp-viewer-ip': { value: '6.6.6.6' },
          'x-csp-viewer-host': { value: 'evil.example' },
          host: { value: 'x' },
        },
      },
    });
    expect(out.headers['x-csp-viewer-ip']).toEqual({ value: '198.51.100.23' });
    expect(out.headers['x-csp-viewer-host']).toEqual({ value: 'x' });
    // An API token sent as Authorization: Bearer is moved out of the header origin access control signs in;
    // other schemes stay where they are.
    const withToken = handler({
      viewer: { ip: '198.51.100.23' },
      request: { headers: { host: { value: 'x' }, authorization: { value: 'Bearer cspg_abc' } } },
    });
    expect(withToken.headers['x-csp-api-token']).toEqual({ value: 'cspg_abc' });
    expect(withToken.headers.authorization).toBeUndefined();
    const basic = handler({
      viewer: { ip: '198.51.100.23' },
      request: { headers: { host: { value: 'x' }, authorization: { value: 'Basic dXNlcjpwYXNz' } } },
    });
    expect(basic.headers.authorization).toEqual({ value: 'Basic dXNlcjpwYXNz' });
    expect(basic.headers['x-csp-api-token']).toBeUndefined();
    // It runs on every /api/* viewer request, and the origin request policy forwards viewer headers.
    const dist = Object.values(s.template.findResources('AWS::CloudFront::Distribution'))[0] as Resource;
    const config = dist.Properties.DistributionConfig as {
      CacheBehaviors: {
        PathPattern: string;
        FunctionAssociations?: unknown[];
        OriginRequestPolicyId: string;
      }[];
    };
    for (const path of ['/api/*', '/api/uri-report']) {
      const api = config.CacheBehaviors.find((b) => b.PathPattern === path)!;
      expect(api.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
      expect(api.FunctionAssociations).toEqual([
        {
          EventType: 'viewer-request',
          FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/ViewerAddress/), 'FunctionARN'] },
        },
      ]);
    }
    s.template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: VIEWER_ADDRESS_SOURCE,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('puts AWS WAF in front of CloudFront by default, with per-IP rules on sign-in, reports, the API and all', () => {
    const rateRule = (name: string, limit: number, window: number, scopeDown: unknown) =>
      Match.objectLike({
        Name: name,
        Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429 }) } },
        Statement: {
          RateBasedStatement: {
            Limit: limit,
            EvaluationWindowSec: window,
            AggregateKeyType: 'IP',
            ...(scopeDown === undefined ? {} : { ScopeDownStatement: scopeDown }),
          },
        },
      });
    const path = (p: string, how = 'EXACTLY') =>
      Match.objectLike({
        ByteMatchStatement: Match.objectLike({
          FieldToMatch: { UriPath: {} },
          PositionalConstraint: how,
          SearchString: p,
        }),
      });
    s.template.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        rateRule('sign-in-rate', 100, 300, {
          OrStatement: {
            Statements: ['/api/login', '/api/register', '/api/altcha-challenge'].map((p) => path(p)),
          },
        }),
        rateRule('report-rate', 600, 60, path('/api/uri-report')),
        rateRule('api-rate', 3000, 300, {
          AndStatement: {
            Statements: [
              path('/api/', 'STARTS_WITH'),
              { NotStatement: { Statement: path('/api/uri-report') } },
            ],
          },
        }),
        rateRule('all-rate', 10000, 300, undefined),
      ],
    });
    s.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        WebACLId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^EdgeWafAcl'), 'Arn'] },
      }),
    });

    // Outside us-east-1 the web ACL and the Lambda@Edge function go to a companion stack there.
    const source = makeSourceRoot(['api', 'reportIngest']);
    const app = testApp();
    const eu = new CspGeneratorStack(app, 'Eu', {
      sourceRoot: source.root,
      env: { region: 'eu-west-1', account: '123456789012' },
    });
    const companion = app.node.findChild('Eu-edge') as Stack;
    expect(companion.region).toBe('us-east-1');
    expect(eu.dependencies).toContain(companion);
    const edge = Template.fromStack(companion);
    edge.resourceCountIs('AWS::WAFv2::WebACL', 1);
    edge.hasResourceProperties('AWS::Lambda::Function', { Code: { ZipFile: BODY_HASH_SOURCE } });
    const main = Template.fromStack(eu);
    main.resourceCountIs('AWS::WAFv2::WebACL', 0);
    const dist = JSON.stringify(main.findResources('AWS::CloudFront::Distribution'));
    // Both values come across as the companion's outputs, read from us-east-1 (Fn::GetStackOutput).
    for (const key of ['WebACLId', 'LambdaFunctionARN']) {
      expect(dist).toMatch(
        new RegExp(`"${key}":\\{"Fn::GetStackOutput":\\{"StackName":"Eu-edge","Region":"us-east-1"`),
      );
    }

    // The explicit opt-out: no web ACL (the app's own limits remain).
    const off = Template.fromStack(
      new CspGeneratorStack(testApp(), 'NoWaf', { sourceRoot: source.root, waf: false }),
    );
    source.remove();
    off.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(JSON.stringify(off.findResources('AWS::CloudFront::Distribution'))).not.toContain('WebACLId');
  });

  it("sends the origin-verify secret's current value, pinned to a version when a rotation names one", () => {
    const header = (t: Template) =>
      JSON.stringify(t.findResources('AWS::CloudFront::Distribution')).match(
        /"HeaderName":"x-origin-verify","HeaderValue":(\{"Fn::Join".*?\]\]\})/,
      )?.[1] ?? '';
    expect(header(s.template)).toMatch(/:SecretString:current::\}\}/);
    s.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: Match.objectLike({
        SecretStringTemplate: '{"previous":""}',
        GenerateStringKey: 'current',
        PasswordLength: 48,
      }),
    });
    const source = makeSourceRoot(['api']);
    const pinned = Template.fromStack(
      new CspGeneratorStack(testApp(), 'Pinned', { sourceRoot: source.root, originVerifyVersion: 'v-123' }),
    );
    source.remove();
    expect(header(pinned)).toMatch(/:SecretString:current::v-123\}\}/);
  });

  it('caps the report function with a reserved concurrency', () => {
    s.template.hasResourceProperties('AWS::Lambda::Function', {
      Description: 'CSP Generator: receives CSP violation reports',
      ReservedConcurrentExecutions: 20,
    });
  });

  it('alarms on dead letters, report queue age, and every function’s errors and throttles, to one topic', () => {
    const alarms = Object.values(s.template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    const topic = Object.keys(s.template.findResources('AWS::SNS::Topic'))[0]!;
    const byMetric = (metric: string) => alarms.filter((a) => a.Properties.MetricName === metric);
    expect(byMetric('ApproximateNumberOfMessagesVisible')).toHaveLength(2);
    expect(byMetric('ApproximateAgeOfOldestMessage')).toHaveLength(1);
    expect(byMetric('ApproximateAgeOfOldestMessage')[0]!.Properties.Threshold).toBe(600);
    const fnAlarmed = (metric: string) =>
      byMetric(metric).map((a) => JSON.stringify(a.Properties.Dimensions));
    for (const name of ALL_FUNCTIONS) {
      for (const metric of ['Errors', 'Throttles']) {
        expect(
          fnAlarmed(metric).some((d) => d.includes(s.logicalId(name))),
          `${name} ${metric}`,
        ).toBe(true);
      }
    }
    for (const a of alarms) expect(a.Properties.AlarmActions).toEqual([{ Ref: topic }]);
    // The e-mail is a deploy parameter; no subscription is made when it is empty.
    s.template.hasParameter('AlarmEmail', { Type: 'String', Default: '' });
    s.template.hasResource('AWS::SNS::Subscription', {
      Condition: Match.anyValue(),
      Properties: { Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' } },
    });
  });

  it('keeps blobs private, TLS-only and for 30 days', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LifecycleConfiguration: {
        Rules: [Match.objectLike({ ExpirationInDays: 30, Status: 'Enabled' })],
      },
    });
  });

  it("passes CDK's built-in CloudFormation validation (an error there fails the synth)", () => {
    expect(() => synth(ALL_FUNCTIONS, { validate: true })).not.toThrow();
  });

  it('outputs the URL, the table name and the queue URL', () => {
    for (const name of ['Url', 'TableName', 'CrawlQueueUrl']) s.template.hasOutput(name, Match.anyValue());
  });
});

describe('CspGeneratorStack while handlers are still being written', () => {
  it('synthesizes without them and says which are missing', () => {
    const s = synth(['api']);
    expect(Object.keys(s.stack.functions)).toEqual(['api']);
    s.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
    // The API's URL, routed by CloudFront's /api/*.
    s.template.resourceCountIs('AWS::Lambda::Url', 1);
    const warnings = Annotations.fromStack(s.stack)
      .findWarning('*', Match.stringLikeRegexp('does not exist'))
      .map((w) => String(w.entry.data));
    expect(warnings.join('\n')).toMatch(/crawler[\s\S]*reportIngest|reportIngest[\s\S]*crawler/);
    expect(warnings.join('\n')).toMatch(/crawlCoordinator/);
    expect(warnings.join('\n')).toMatch(/crawlWriter/);
    expect(warnings.join('\n')).toMatch(/reportConsumer/);
    expect(warnings.join('\n')).toMatch(/web\/dist/);
  });

  it('refuses to synthesize without the API', () => {
    expect(() => synth([])).toThrow(/functions\/src\/api\/lambda\.ts/);
  });
});
