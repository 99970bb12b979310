// Where a generated policy sends its violation reports (report-uri), written so the header stays one policy.
/**
 * report-uri value, made safe for a header: absolute http(s) URL or a path. `;` and `,` would end the
 * directive or the policy, so they are percent-encoded (the URL parser leaves them as they are).
 */
export function reportUriSource(uri: string): string {
  const isPath = uri.startsWith('/') && !uri.startsWith('//');
  let parsed: URL;
  try {
    parsed = new URL(uri, isPath ? 'https://placeholder.invalid' : undefined);
  } catch {
    throw new Error(`reportUri is not a valid URL: ${uri}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`reportUri must be an http(s) URL or a path: ${uri}`);
  }
  const text = isPath ? `${parsed.pathname}${parsed.search}${parsed.hash}` : parsed.href;
  return text.replace(/;/g, '%3B').replace(/,/g, '%2C');
}
