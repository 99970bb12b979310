// The secrets of the product's functions, loaded once per process (aws/secrets.ts, local/secrets.ts).
import type { OriginVerify } from './http/origin-verify';

export interface Secrets {
  sessionSecret: string;
  altchaHmacKey: string;
  /** 32 bytes, base64: encrypts TOTP secrets at rest. */
  totpEncryptionKey: string;
  /**
   * In AWS, CloudFront adds x-origin-verify to every request; requests without an accepted value bypassed
   * CloudFront (an opted-in public report URL, or a misconfiguration) and are refused. Unset locally.
   */
  originVerify?: OriginVerify;
}
