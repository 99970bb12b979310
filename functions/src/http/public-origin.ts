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

/** The report endpoint of a domain as configured: REPORT_ENDPOINT_ORIGIN (the ingest function's own URL) or the public origin. */
export function domainReportEndpoint(
  requestUrl: string,
  config: { PUBLIC_URL?: string; REPORT_ENDPOINT_ORIGIN?: string },
  domainUuid: string,
): string {
  return reportEndpoint(
    config.REPORT_ENDPOINT_ORIGIN ?? publicOrigin(requestUrl, config.PUBLIC_URL),
    domainUuid,
  );
}
