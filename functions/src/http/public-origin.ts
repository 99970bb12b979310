// The product's public origin: PUBLIC_URL when configured (behind CloudFront), else the request's own.
// Cookies' Secure flag, the CSRF check and the report-uri written into policies all derive from it.

export function publicOrigin(requestUrl: string, publicUrl: string | undefined): string {
  return new URL(publicUrl ?? requestUrl).origin;
}

export function isSecureRequest(requestUrl: string, publicUrl: string | undefined): boolean {
  return new URL(publicUrl ?? requestUrl).protocol === 'https:';
}

/** Where browsers send a domain's violation reports. */
export function reportEndpoint(origin: string, domainUuid: string): string {
  return `${origin}/api/uri-report?domain=${encodeURIComponent(domainUuid)}`;
}
