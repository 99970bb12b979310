// The product's secrets: one Secrets Manager secret holding JSON {sessionSecret, altchaHmacKey,
// totpEncryptionKey}, read by functions/src/aws/secrets.ts through SECRETS_ARN.
//
// Secrets Manager generates one key per secret (generateStringKey), and totpEncryptionKey must be exactly
// 32 random bytes in base64 (AES-256-GCM, functions/src/auth/secret-box.ts). So the template generates
// sessionSecret, and a small custom resource fills in every field that is missing or empty with 32 bytes
// from node:crypto, the same formats as functions/src/local/secrets.ts. It writes the values straight
// into the secret (PutSecretValue) and returns nothing: no secret reaches the template, CloudFormation's
// events or its outputs, and the stack works after `cdk deploy` with no manual step. It never overwrites
// a value: rotating totpEncryptionKey would make every stored 2FA secret unreadable, and an operator who
// sets a value by hand keeps it.
import { CustomResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { PROJECT_RUNTIME } from './project-function';

/** Each field and how its 32 random bytes are written (as in functions/src/local/secrets.ts). */
export const SECRET_FIELDS = {
  sessionSecret: 'base64url',
  altchaHmacKey: 'base64url',
  totpEncryptionKey: 'base64',
} as const;

// CommonJS (an inline function is index.js); the SDK v3 ships with the Node.js runtimes. It answers
// CloudFormation itself (no provider framework, whose own Lambda would run whatever Node CDK picks), so
// it must answer on every path, errors included. Exported for its test.
export const SEEDER_SOURCE = `
const https = require('node:https');
const { randomBytes } = require('node:crypto');
const { SecretsManagerClient, GetSecretValueCommand, PutSecretValueCommand } = require('@aws-sdk/client-secrets-manager');
const sm = new SecretsManagerClient({});

async function seed(secretId, fields) {
  const current = await sm.send(new GetSecretValueCommand({ SecretId: secretId }));
  const value = JSON.parse(current.SecretString || '{}');
  let changed = false;
  for (const [name, encoding] of Object.entries(fields)) {
    if (typeof value[name] === 'string' && value[name].length > 0) continue;
    value[name] = randomBytes(32).toString(encoding);
    changed = true;
  }
  if (changed) await sm.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(value) }));
}

function respond(event, status, reason) {
  const body = JSON.stringify({
    Status: status,
    Reason: reason,
    PhysicalResourceId: event.ResourceProperties.SecretId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  return new Promise((resolve, reject) => {
    const req = https.request(event.ResponseURL, {
      method: 'PUT',
      headers: { 'content-type': '', 'content-length': Buffer.byteLength(body) },
    }, (res) => { res.resume(); res.on('end', resolve); });
    req.on('error', reject);
    req.end(body);
  });
}

exports.handler = async (event) => {
  try {
    if (event.RequestType !== 'Delete') await seed(event.ResourceProperties.SecretId, JSON.parse(event.ResourceProperties.Fields));
    await respond(event, 'SUCCESS', 'seeded');
  } catch (err) {
    console.error('seeding failed', err && err.name);
    await respond(event, 'FAILED', 'Seeding the secret failed: ' + (err && err.name));
  }
};
`;

export class AppSecrets extends Construct {
  readonly secret: Secret;
  /** Done once the secret holds every field; functions that read it at start depend on this. */
  readonly seeded: CustomResource;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new Secret(this, 'Secret', {
      description: 'CSP Generator: session signing key, ALTCHA HMAC key, TOTP encryption key (JSON)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({}),
        generateStringKey: 'sessionSecret',
        passwordLength: 64,
        excludePunctuation: true,
      },
      // The table is retained, and its sealed 2FA secrets are useless without totpEncryptionKey.
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const seeder = new LambdaFunction(this, 'Seeder', {
      description: 'Fills in the missing fields of the CSP Generator secret (never overwrites)',
      runtime: PROJECT_RUNTIME,
      architecture: Architecture.ARM_64,
      handler: 'index.handler',
      code: Code.fromInline(SEEDER_SOURCE),
      timeout: Duration.minutes(1),
      logGroup: new LogGroup(this, 'SeederLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    });
    this.secret.grantRead(seeder);
    seeder.addToRolePolicy(
      new PolicyStatement({ actions: ['secretsmanager:PutSecretValue'], resources: [this.secret.secretArn] }),
    );

    this.seeded = new CustomResource(this, 'Seed', {
      serviceToken: seeder.functionArn,
      resourceType: 'Custom::AppSecretsSeed',
      // A new field here makes an Update that adds it; existing values are kept.
      properties: { SecretId: this.secret.secretArn, Fields: JSON.stringify(SECRET_FIELDS) },
    });
  }
}
