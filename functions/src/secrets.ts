// The secrets of the product's functions, loaded once per process (aws/secrets.ts, local/secrets.ts).
export interface Secrets {
  sessionSecret: string;
  altchaHmacKey: string;
  /** 32 bytes, base64: encrypts TOTP secrets at rest. */
  totpEncryptionKey: string;
  /**
   * In AWS, CloudFront adds this value as the x-origin-verify header; requests without it bypassed CloudFront
   * (the execute-api URL is public) and are refused. Unset locally.
   */
  originVerify?: string;
}
