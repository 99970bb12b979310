// Secrets in AWS: one Secrets Manager secret (JSON with sessionSecret, altchaHmacKey, totpEncryptionKey),
// read once per Lambda container. Environment variables override it (for tests of the Lambda entry).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Config } from '../config';
import {
  acceptedValues,
  fixedOriginVerify,
  type OriginVerify,
  refreshingOriginVerify,
} from '../http/origin-verify';
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
  const originVerify = await loadOriginVerify();
  return { ...(secrets as Secrets), ...(originVerify ? { originVerify } : {}) };
}

/**
 * The accepted x-origin-verify values: from ORIGIN_VERIFY_SECRET_ARN, re-read every few minutes (so a
 * rotation needs no restart), or fixed by ORIGIN_VERIFY (tests of the Lambda entries); none locally.
 */
export async function loadOriginVerify(onError?: (err: unknown) => void): Promise<OriginVerify | undefined> {
  const arn = process.env.ORIGIN_VERIFY_SECRET_ARN;
  if (arn) {
    const client = new SecretsManagerClient({});
    return refreshingOriginVerify(
      async () => (await client.send(new GetSecretValueCommand({ SecretId: arn }))).SecretString,
      { onError },
    );
  }
  const fixed = acceptedValues(process.env.ORIGIN_VERIFY);
  return fixed.length > 0 ? fixedOriginVerify(fixed) : undefined;
}
