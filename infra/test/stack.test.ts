import { OWN_POLICY } from '@csp/shared/csp/own-policy';
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { CspGeneratorStack, type FunctionName } from '../lib/csp-generator-stack';
import { OwnHeaders } from '../lib/own-headers';
import { VIEWER_ADDRESS_SOURCE } from '../lib/viewer-address';
import { makeSourceRoot, testApp } from './source-root';

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
    s = synth(['api', 'crawler', 'crawlDeadLetter', 'reportIngest', 'reportConsumer']);
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

  it('feeds the crawler one message at a time and reports partial batch failures', () => {
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: s.logicalId('crawler') },
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
    expect(Object.keys((crawler.Properties.Environment as { Variables: object }).Variables)).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'CRAWL_QUEUE_URL', 'BLOB_BUCKET']),
    );
  });

  it('runs every Lambda on nodejs24.x', () => {
    const functions = Object.entries(s.template.findResources('AWS::Lambda::Function'));
    expect(functions.length).toBeGreaterThanOrEqual(5);
    for (const [id, fn] of functions) expect((fn as Resource).Properties.Runtime, id).toBe('nodejs24.x');
  });

  it('takes reports at a Function URL that generated policies name, queues them and consumes them in batches', () => {
    s.template.hasResourceProperties('AWS::Lambda::Url', {
      TargetFunctionArn: { 'Fn::GetAtt': [s.logicalId('reportIngest'), 'Arn'] },
      AuthType: 'NONE',
    });
    const api = s.template.toJSON().Resources[s.logicalId('api')] as Resource;
    const apiEnv = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(JSON.stringify(apiEnv.REPORT_ENDPOINT_ORIGIN)).toContain('FunctionUrl');
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

  it('takes reports through CloudFront only when the deployment says so, and names that in policies', () => {
    const source = makeSourceRoot(['api', 'reportIngest', 'reportConsumer']);
    const stack = new CspGeneratorStack(testApp(), 'NoUrl', {
      sourceRoot: source.root,
      reportFunctionUrl: false,
    });
    const t = Template.fromStack(stack);
    source.remove();
    t.resourceCountIs('AWS::Lambda::Url', 0);
    const api = Object.values(t.findResources('AWS::Lambda::Function')).find(
      (r) => (r as Resource).Properties.Description === 'CSP Generator API (Hono)',
    ) as Resource;
    const env = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    // Without REPORT_ENDPOINT_ORIGIN, report-uri is PUBLIC_URL's /api/uri-report (CloudFront).
    expect(env.REPORT_ENDPOINT_ORIGIN).toBeUndefined();
    expect(JSON.stringify(env.PUBLIC_URL)).toContain('DomainName');
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /api/uri-report' });
    t.hasOutput('ReportEndpoint', { Value: Match.anyValue() });
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
  const ALL: FunctionName[] = ['api', 'crawler', 'crawlDeadLetter', 'reportIngest', 'reportConsumer'];

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
      sqsAndSecrets('crawler').filter(
        (a) => !a.startsWith('sqs:Receive') && !/Delete|Visibility|GetQueue/.test(a),
      ),
    ).toEqual(['sqs:SendMessage']);
    for (const name of ALL) {
      const all = statementsOf(name).flatMap(actions);
      expect(all.length, name).toBeGreaterThan(0);
      expect(
        all.filter((a) => a.includes('*')),
        name,
      ).toEqual([]);
      expect(all, name).not.toContain('dynamodb:Scan');
    }
  });

  it('confines the crawler to analyses, run slots and achievements (LeadingKeys), with no secret and no index', () => {
    const statements = statementsOf('crawler');
    const dynamo = statements.filter((st) => actions(st).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo.length).toBeGreaterThan(0);
    for (const st of dynamo) {
      expect(st.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['ANALYSIS#*', 'RUNSLOTS#*', 'ACHIEVE#*'] },
      });
      expect(JSON.stringify(st.Resource)).not.toContain('/index/');
    }
    expect(statements.flatMap(actions).filter((a) => a.startsWith('secretsmanager:'))).toEqual([]);
    expect(statements.flatMap(actions).filter((a) => a.startsWith('kms:'))).toEqual([]);
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
    // The report consumer reads domains and crawls but writes only its report items and achievements.
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
          'ACHIEVE#*',
        ],
      },
    });
  });

  it('gives only the API the secret, through SECRETS_ARN', () => {
    const api = s.template.toJSON().Resources[s.logicalId('api')] as Resource;
    const env = (api.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining([
        'TABLE_NAME',
        'CRAWL_QUEUE_URL',
        'SECRETS_ARN',
        'ORIGIN_VERIFY_SECRET_ARN',
        'PUBLIC_URL',
        'LOG_LEVEL',
      ]),
    );
    const readers = Object.values(s.template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p).includes('secretsmanager:GetSecretValue'),
    );
    // The API's role and the seeder's (the API reads both secrets in one policy), and the ingest function's
    // for the origin-verify value only.
    expect(readers).toHaveLength(3);
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

  it('sends /api/* to the HTTP API uncached with every viewer header but Host, the rest to S3 via OAC', () => {
    s.template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CacheBehaviors: [
          Match.objectLike({
            PathPattern: '/api/*',
            CachePolicyId: CACHING_DISABLED,
            OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
          }),
        ],
        Origins: Match.arrayWith([Match.objectLike({ OriginAccessControlId: Match.anyValue() })]),
      }),
    });
    // CloudFront proves itself to the API with a secret header, resolved at deploy (never in the template).
    const origins = JSON.stringify(s.template.findResources('AWS::CloudFront::Distribution'));
    expect(origins).toMatch(
      /"HeaderName":"x-origin-verify","HeaderValue":\{"Fn::Join":\["",\["\{\{resolve:secretsmanager:/,
    );
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /api/{proxy+}' });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /api/uri-report' });
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

  it('gives the API a viewer address no client can forge: a viewer-request function writes it', () => {
    // The function as CloudFront runs it: a forged header of the same name is replaced.
    const handler = new Function(`${VIEWER_ADDRESS_SOURCE}; return handler;`)() as (e: unknown) => {
      headers: Record<string, { value: string }>;
    };
    const out = handler({
      viewer: { ip: '198.51.100.23' },
      request: { headers: { 'x-csp-viewer-ip': { value: '6.6.6.6' }, host: { value: 'x' } } },
    });
    expect(out.headers['x-csp-viewer-ip']).toEqual({ value: '198.51.100.23' });
    // It runs on every /api/* viewer request, and the origin request policy forwards viewer headers.
    const dist = Object.values(s.template.findResources('AWS::CloudFront::Distribution'))[0] as Resource;
    const config = dist.Properties.DistributionConfig as {
      CacheBehaviors: {
        PathPattern: string;
        FunctionAssociations?: unknown[];
        OriginRequestPolicyId: string;
      }[];
    };
    const api = config.CacheBehaviors.find((b) => b.PathPattern === '/api/*')!;
    expect(api.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    expect(api.FunctionAssociations).toEqual([
      {
        EventType: 'viewer-request',
        FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/ViewerAddress/), 'FunctionARN'] },
      },
    ]);
    s.template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: VIEWER_ADDRESS_SOURCE,
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });
  });

  it('puts AWS WAF with rate-based rules in front of CloudFront only when asked, and only in us-east-1', () => {
    s.template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    const source = makeSourceRoot(['api']);
    const withWaf = new CspGeneratorStack(testApp(), 'Waf', {
      sourceRoot: source.root,
      waf: true,
      env: { region: 'us-east-1', account: '123456789012' },
    });
    const t = Template.fromStack(withWaf);
    t.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Name: 'sign-in-rate',
          Action: { Block: {} },
          Statement: {
            RateBasedStatement: Match.objectLike({
              Limit: 100,
              AggregateKeyType: 'IP',
              ScopeDownStatement: Match.anyValue(),
            }),
          },
        }),
        Match.objectLike({
          Name: 'all-rate',
          Statement: { RateBasedStatement: Match.objectLike({ Limit: 2000, AggregateKeyType: 'IP' }) },
        }),
      ],
    });
    t.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        WebACLId: { 'Fn::GetAtt': [Match.stringLikeRegexp('^WafAcl'), 'Arn'] },
      }),
    });
    expect(
      () =>
        new CspGeneratorStack(testApp(), 'WafElsewhere', {
          sourceRoot: source.root,
          waf: true,
          env: { region: 'eu-west-1', account: '123456789012' },
        }),
    ).toThrow(/us-east-1/);
    source.remove();
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

  it('throttles per route: sign-in, registration and the challenge far below reads, reports on their own', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      RouteSettings: {
        'POST /api/login': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'POST /api/register': { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 5 },
        'GET /api/altcha-challenge': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
        'ANY /api/uri-report': { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 },
      },
    });
    for (const key of ['POST /api/login', 'POST /api/register', 'GET /api/altcha-challenge']) {
      s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: key });
    }
    // Every throttled route exists (a setting for a missing route key would be ignored).
    const keys = Object.values(s.template.findResources('AWS::ApiGatewayV2::Route')).map(
      (r) => (r as Resource).Properties.RouteKey,
    );
    const stage = Object.values(s.template.findResources('AWS::ApiGatewayV2::Stage'))[0] as Resource;
    for (const key of Object.keys(stage.Properties.RouteSettings as object)) expect(keys).toContain(key);
    // The report endpoint's Function URL is capped by reserved concurrency.
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
    for (const name of ALL) {
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
    expect(() =>
      synth(['api', 'crawler', 'crawlDeadLetter', 'reportIngest', 'reportConsumer'], { validate: true }),
    ).not.toThrow();
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
    // /api/{proxy+} and the three routes that exist for their own throttles.
    s.template.resourceCountIs('AWS::ApiGatewayV2::Route', 4);
    const warnings = Annotations.fromStack(s.stack)
      .findWarning('*', Match.stringLikeRegexp('does not exist'))
      .map((w) => String(w.entry.data));
    expect(warnings.join('\n')).toMatch(/crawler[\s\S]*reportIngest|reportIngest[\s\S]*crawler/);
    expect(warnings.join('\n')).toMatch(/reportConsumer/);
    expect(warnings.join('\n')).toMatch(/web\/dist/);
  });

  it('refuses to synthesize without the API', () => {
    expect(() => synth([])).toThrow(/functions\/src\/api\/lambda\.ts/);
  });
});
