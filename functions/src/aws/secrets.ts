// Secrets in AWS: one Secrets Manager secret (JSON with sessionSecret, altchaHmacKey, totpEncryptionKey),
// read once per Lambda container. Environment variables override it (for tests of the Lambda entry).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config';
import type { Secrets } from '../secrets';

export async function loadAwsSecrets(config: Config, secretArn: string | undefined): Promise<Secrets> {
  let stored: Partial<Secrets> = {};
  if (secretArn) {
    const res = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretArn }));
    stored = JSON.parse(res.SecretString ?? '{}') as Partial<Secrets>;
  }
  const secrets = {
    sessionSecret: config.SESSION_SECRET ?? stored.sessionSecret,
    altchaHmacKey: config.ALTCHA_HMAC_KEY ?? stored.altchaHmacKey,
    totpEncryptionKey: config.TOTP_ENCRYPTION_KEY ?? stored.totpEncryptionKey,
  };
  for (const [k, v] of Object.entries(secrets)) {
    if (!v) throw new Error(`Secret ${k} is missing (SECRETS_ARN or its environment variable)`);
  }
  const originArn = process.env.ORIGIN_VERIFY_SECRET_ARN;
  const originVerify = originArn
    ? (await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: originArn })))
        .SecretString
    : process.env.ORIGIN_VERIFY;
  return { ...(secrets as Secrets), ...(originVerify ? { originVerify } : {}) };
}
