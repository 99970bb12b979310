// npm run rotate:origin-verify -- <OriginVerifySecretArn> (a stack output): step 1 of rotating the value
// CloudFront sends to the API. The new value becomes `current`, the old one `previous`; every function
// re-reads the secret within ORIGIN_VERIFY_REFRESH_MS and then accepts both. Step 2, printed at the end: a
// deploy pinned to the new version, after which CloudFront sends the new value. Nothing is refused at any
// point. The secret's values are never printed.
import { randomBytes } from 'node:crypto';
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { ORIGIN_VERIFY_REFRESH_MS, rotatedSecret } from '../http/origin-verify';

async function main() {
  const arn = process.argv[2];
  if (!arn?.startsWith('arn:')) {
    console.error('Usage: npm run rotate:origin-verify -- <OriginVerifySecretArn from the stack outputs>');
    process.exit(2);
  }
  const client = new SecretsManagerClient({});
  const old = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  const fresh = randomBytes(36).toString('base64url'); // 48 characters, like the generated one
  const put = await client.send(
    new PutSecretValueCommand({ SecretId: arn, SecretString: rotatedSecret(old.SecretString, fresh) }),
  );
  const minutes = ORIGIN_VERIFY_REFRESH_MS / 60_000;
  console.log(`New origin-verify value stored (version ${put.VersionId}).`);
  console.log(`Wait ${minutes} minutes (every function then accepts both values), then deploy:`);
  console.log(`  npm run deploy -- -c originVerifyVersion=${put.VersionId}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
