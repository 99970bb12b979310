// Outgoing mail in AWS: the SMTP server's address (credentials in it) and the sender are kept in their own
// Secrets Manager secret, MAIL_SECRET_ARN, JSON {"smtpUrl": "smtps://user:pass@host:465", "mailFrom": "..."}
// (infra/lib/mail-secret.ts), readable only by the functions that send mail: the API (invitations) and the
// schedule dispatcher (alert e-mail). An empty smtpUrl sends nothing, as SMTP_URL unset does locally. The
// value is read again after REFRESH_MS, so an operator who fills the secret in need not redeploy.
// SMTP_URL in the environment wins (tests of the Lambda entries; a deployment that sets it).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod';
import { type Config, SMTP_URL_PATTERN } from '../config';

export type MailSettings = Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>;

const REFRESH_MS = 5 * 60_000;

const mailSecretSchema = z.object({
  smtpUrl: z
    .union([z.literal(''), z.string().regex(SMTP_URL_PATTERN, 'smtpUrl must start with smtp:// or smtps://')])
    .optional(),
  mailFrom: z.string().optional(),
});

/** The mail settings, read (and kept for a few minutes) from the mail secret when there is one. */
export function mailSettingsLoader(
  config: MailSettings,
  secretArn: string | undefined = process.env.MAIL_SECRET_ARN,
): () => Promise<MailSettings> {
  if (config.SMTP_URL || !secretArn) return async () => config;
  const client = new SecretsManagerClient({});
  let cached: { at: number; value: Promise<MailSettings> } | null = null;
  const read = async (): Promise<MailSettings> => {
    const res = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    const stored = mailSecretSchema.parse(JSON.parse(res.SecretString || '{}'));
    return {
      MAIL_FROM: stored.mailFrom || config.MAIL_FROM,
      ...(stored.smtpUrl ? { SMTP_URL: stored.smtpUrl } : {}),
    };
  };
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > REFRESH_MS) {
      const value = read();
      // A failed read is tried again at the next call, not kept.
      value.catch(() => {
        cached = null;
      });
      cached = { at: now, value };
    }
    return cached.value;
  };
}
