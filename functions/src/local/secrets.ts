// Local secrets: taken from the environment when set, otherwise made once and kept in DATA_DIR (mode 0600),
// so sessions survive a restart. In AWS they come from Secrets Manager through the environment.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config';
import type { Secrets } from '../secrets';

export function randomSecrets(): Secrets {
  return {
    sessionSecret: randomBytes(32).toString('base64url'),
    altchaHmacKey: randomBytes(32).toString('base64url'),
    totpEncryptionKey: randomBytes(32).toString('base64'),
  };
}

export function loadLocalSecrets(config: Config, dataDir: string): Secrets {
  const file = join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
  const fresh = randomSecrets();
  const secrets: Secrets = {
    sessionSecret: config.SESSION_SECRET ?? stored.sessionSecret ?? fresh.sessionSecret,
    altchaHmacKey: config.ALTCHA_HMAC_KEY ?? stored.altchaHmacKey ?? fresh.altchaHmacKey,
    totpEncryptionKey: config.TOTP_ENCRYPTION_KEY ?? stored.totpEncryptionKey ?? fresh.totpEncryptionKey,
  };
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
