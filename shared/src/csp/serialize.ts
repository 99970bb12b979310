// From cspRules to what a user deploys: the header value, the header name, and ready-to-paste server
// configuration (Apache, Nginx, IIS), a <meta> tag and the plain policy. Rules may hold user-entered custom
// sources, so every value is checked against the CSP grammar and escaped for the format it goes into.
import * as z from 'zod';
import { dictionary, ownValue } from '../maps/dictionary';
import { compareDirectives } from './directives';
import { CLOUDFRONT_CSP_MAX, NGINX_PROXY_BUFFER } from './header-limits';
import type { CspRules } from './policy';

export const CSP_HEADER = 'Content-Security-Policy';
export const CSP_REPORT_ONLY_HEADER = 'Content-Security-Policy-Report-Only';

export { CLOUDFRONT_CSP_MAX, NGINX_PROXY_BUFFER } from './header-limits';

/** The Reporting API group every generated policy names in report-to. */
export const REPORTING_GROUP = 'csp-endpoint';

export const EXPORT_FORMATS = ['apache', 'nginx', 'iis', 'meta', 'plain'] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** File names from the spec (section 9): server formats by name, csp-config.txt otherwise. */
export const EXPORT_FILENAMES: Record<ExportFormat, string> = {
  apache: '.htaccess',
  nginx: 'nginx.conf',
  iis: 'web.config',
  meta: 'csp-config.txt',
  plain: 'csp-policy.txt',
};

export const headerSchema = z.object({ name: z.string(), value: z.string() });
export type Header = z.infer<typeof headerSchema>;

/** A header sent beside the policy (see exportOptionsSchema.extraHeaders). */
const extraHeaderSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'A header name is letters, digits and hyphens'),
  value: z.string().regex(/^[ !#-[\]-~]*$/, 'A header value is visible ASCII and spaces, without " and \\'),
});

export const exportOptionsSchema = z.object({
  reportOnly: z.boolean().default(false),
  /**
   * Nginx: write every `'nonce-…'` as `'nonce-$request_id'` (16 random bytes as 32 hex characters, new for
   * every request), so the nonce protects; the application reads the same value from a request header.
   * The other servers have no per-request value a nonce can use, so they write the stored nonce and warn.
   */
  perRequestNonce: z.boolean().default(false),
  /**
   * Reporting API: adds `report-to <group>` to the policy and a `Reporting-Endpoints: <group>="<url>"`
   * header. Browsers that support report-to ignore report-uri, so keep report-uri as well for the others.
   */
  reportTo: z
    .object({
      group: z
        .string()
        .regex(/^[A-Za-z0-9_-]{1,64}$/, 'group must be a token (letters, digits, - and _)')
        .default(REPORTING_GROUP),
      url: z.url({ protocol: /^https?$/ }),
    })
    .optional(),
  /**
   * Headers sent beside the policy, after it and Reporting-Endpoints (a configuration's Integrity-Policy,
   * its Trusted Types policy). A name is a header token; a value is visible ASCII and spaces without `"`
   * and `\`, which no value of ours holds and which server configs would need escaped.
   */
  extraHeaders: z.array(extraHeaderSchema).default([]),
});
export type ExportOptions = z.input<typeof exportOptionsSchema>;

export const policyExportSchema = z.object({
  filename: z.string(),
  content: z.string(),
  warnings: z.array(z.string()),
  /**
   * The headers the file sends, in order (the nginx file writes a nonce as $request_id instead of the
   * stored one); none for the <meta> tag, which is not a header.
   */
  headers: z.array(headerSchema),
});
export type PolicyExport = z.infer<typeof policyExportSchema>;

export function headerName(reportOnly: boolean): string {
  return reportOnly ? CSP_REPORT_ONLY_HEADER : CSP_HEADER;
}

const DIRECTIVE_NAME = /^[A-Za-z0-9-]+$/;
/**
 * A source expression a header can carry: visible ASCII without `;` and `,` (they end a directive or a
 * policy) and without `"` and `\`, which no valid source contains and which would need config escaping.
 */
const SOURCE_TOKEN = /^[!#-+\--:<-[\]-~]+$/;

/**
 * nginx has no escape for `$` in a string (it starts a variable). CSP matches paths after percent-decoding
 * both sides, so a source with %24 allows the same URLs, and a report URL with %24 reaches the same
 * endpoint on servers that decode paths. Written so for every target, each server sends the same bytes.
 */
function dollarEncoded(value: string): string {
  return value.replaceAll('$', '%24');
}

/** The header value and anything dropped because it could not be written safely. */
export function renderPolicy(rules: CspRules): { value: string; warnings: string[] } {
  const warnings: string[] = [];
  const parts: string[] = [];
  for (const directive of Object.keys(rules).sort(compareDirectives)) {
    if (!DIRECTIVE_NAME.test(directive)) {
      warnings.push(`Dropped directive ${JSON.stringify(directive)}: not a valid directive name.`);
      continue;
    }
    const seen = new Set<string>();
    const sources: string[] = [];
    for (const source of ownValue(rules, directive) ?? []) {
      if (!SOURCE_TOKEN.test(source)) {
        warnings.push(
          `Dropped source ${JSON.stringify(source)} from ${directive}: spaces, control characters, ';', ',', '"' and '\\' cannot appear in a source (percent-encode them in URLs).`,
        );
        continue;
      }
      const written = dollarEncoded(source);
      if (!seen.has(written)) {
        seen.add(written);
        sources.push(written);
      }
    }
    parts.push(sources.length ? `${directive.toLowerCase()} ${sources.join(' ')}` : directive.toLowerCase());
  }
  return { value: parts.join('; '), warnings };
}

/** The header value, e.g. `default-src 'none'; script-src 'self'`. */
export function serializePolicy(rules: CspRules): string {
  return renderPolicy(rules).value;
}

interface Prepared {
  headers: Header[];
  value: string;
  warnings: string[];
}

/** Which header-length limits apply where a file goes (each export names only its own). */
type LengthLimit = 'cloudfront' | 'proxy-buffer';

function prepare(rules: CspRules, options: ExportOptions, limits: readonly LengthLimit[]): Prepared {
  const opts = exportOptionsSchema.parse(options);
  let effective = rules;
  const extra: Header[] = [];
  const derived = opts.reportTo ? null : reportingEndpointOf(rules);
  if (derived) {
    extra.push({ name: 'Reporting-Endpoints', value: `${derived.group}="${dollarEncoded(derived.url)}"` });
  } else if (opts.reportTo) {
    effective = { ...rules, 'report-to': [opts.reportTo.group] };
    const url = dollarEncoded(new URL(opts.reportTo.url).href);
    extra.push({ name: 'Reporting-Endpoints', value: `${opts.reportTo.group}="${url}"` });
  }
  const { value, warnings } = renderPolicy(effective);
  warnings.push(...lengthWarnings(value, limits));
  if (rules['report-to'] && !opts.reportTo && !derived) {
    warnings.push(
      'The policy names a report-to group but no Reporting-Endpoints header is configured; browsers will not know where to send reports.',
    );
  }
  if (opts.reportOnly && rules['upgrade-insecure-requests']) {
    warnings.push('upgrade-insecure-requests has no effect in a report-only policy.');
  }
  if (/'nonce-/.test(value) && !opts.perRequestNonce) {
    warnings.push(
      'The policy holds a nonce. A nonce written into server configuration is the same for every response and protects nothing: generate a fresh one per response in your application (or with a per-request variable) and add it to every <script> tag.',
    );
  }
  return {
    headers: [{ name: headerName(opts.reportOnly), value }, ...extra, ...opts.extraHeaders],
    value,
    warnings,
  };
}

/**
 * A policy naming a report-to group beside an absolute report-uri (what the generator writes) reports to
 * that URL under the Reporting API too: the Reporting-Endpoints header follows from the rules themselves.
 */
export function reportingEndpointOf(rules: CspRules): { group: string; url: string } | null {
  const group = rules['report-to']?.[0];
  const uri = rules['report-uri']?.[0];
  if (!group || !uri || !/^[A-Za-z0-9_-]{1,64}$/.test(group)) return null;
  try {
    const url = new URL(uri);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return { group, url: url.href };
  } catch {
    return null;
  }
}

/**
 * Warnings for a header value over a limit that applies: CloudFront's response-headers policy cap (where a
 * plain policy is pasted) and the proxy buffer of an nginx in front of the server that sends the header.
 */
export function lengthWarnings(
  value: string,
  limits: readonly LengthLimit[] = ['cloudfront', 'proxy-buffer'],
): string[] {
  const warnings: string[] = [];
  const n = value.length;
  if (limits.includes('cloudfront') && n > CLOUDFRONT_CSP_MAX) {
    warnings.push(
      `The policy is ${n} characters; CloudFront response-headers policies accept at most ${CLOUDFRONT_CSP_MAX}. Send it from the origin or a CloudFront Function instead.`,
    );
  }
  if (limits.includes('proxy-buffer') && n > NGINX_PROXY_BUFFER) {
    warnings.push(
      `The policy is ${n} characters; if an nginx proxy sits in front of this server, its default proxy_buffer_size (4k/8k) makes responses fail with 502 "upstream sent too big header". Raise proxy_buffer_size/proxy_buffers there or shorten the policy.`,
    );
  }
  return warnings;
}

/** The CSP header (and Reporting-Endpoints when configured), as name/value pairs. */
export function policyHeaders(rules: CspRules, options: ExportOptions = {}): Header[] {
  return prepare(rules, options, []).headers;
}

// Apache (mod_headers): the value is a double-quoted config argument. Inside it `\"` is a literal quote,
// and `%` starts a mod_headers format specifier (%t, %{VAR}e …; unknown ones are a config error), so a
// literal percent (e.g. %20 in a URL path) must be written `%%`. Backslashes never reach here (see SOURCE_TOKEN).
export function escapeApache(value: string): string {
  return value.replace(/%/g, '%%').replace(/"/g, '\\"');
}

// nginx: double-quoted strings take `\"` and `\\`. `$` starts a variable and has no escape: header values
// never hold one (prepare percent-encodes it for every target); this keeps any other string safe too.
export function escapeNginx(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$/g, '%24');
}

/** XML/HTML attribute value in double quotes. */
export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function exportApache(rules: CspRules, options: ExportOptions = {}): PolicyExport {
  const { headers, warnings } = prepare(rules, options, ['proxy-buffer']);
  const lines = headers.map((h) => `  Header always set ${h.name} "${escapeApache(h.value)}"`);
  const content = [
    '# Content Security Policy (CSP Generator). Requires mod_headers.',
    '<IfModule mod_headers.c>',
    ...lines,
    '</IfModule>',
    '',
  ].join('\n');
  return { filename: EXPORT_FILENAMES.apache, content, warnings, headers };
}

export function exportNginx(rules: CspRules, options: ExportOptions = {}): PolicyExport {
  // nginx adds the header itself: no proxy buffer is involved (it applies to headers nginx proxies).
  const { headers, warnings } = prepare(rules, options, []);
  const perRequest =
    exportOptionsSchema.parse(options).perRequestNonce && headers[0]!.value.includes("'nonce-");
  const lines = headers.map((h, i) => {
    const escaped = escapeNginx(h.value);
    // The only `$` left in a value is this variable: sources had theirs percent-encoded (renderPolicy).
    const value = i === 0 && perRequest ? escaped.replace(/'nonce-[^']*'/g, "'nonce-$request_id'") : escaped;
    return `add_header ${h.name} "${value}" always;`;
  });
  const nonceLines = perRequest
    ? [
        '# The nonce is $request_id: 16 random bytes (32 hex characters), new for every request. Give the same',
        '# value to the application, which puts it on every <script nonce="…"> and <style nonce="…"> tag:',
        '#   proxy_set_header X-CSP-Nonce $request_id;      (proxy_pass)',
        '#   fastcgi_param CSP_NONCE $request_id;            (PHP-FPM and other FastCGI applications)',
      ]
    : [];
  const content = [
    '# Content Security Policy (CSP Generator). Put these lines in a server or location block.',
    '# add_header in a block replaces every add_header inherited from enclosing blocks: repeat them there.',
    ...nonceLines,
    ...lines,
    '',
  ].join('\n');
  return { filename: EXPORT_FILENAMES.nginx, content, warnings, headers };
}

export function exportIis(rules: CspRules, options: ExportOptions = {}): PolicyExport {
  const { headers, warnings } = prepare(rules, options, ['proxy-buffer']);
  const entries = headers.flatMap((h) => [
    // remove first: a header inherited from a parent web.config would otherwise be sent twice.
    `        <remove name="${escapeAttribute(h.name)}" />`,
    `        <add name="${escapeAttribute(h.name)}" value="${escapeAttribute(h.value)}" />`,
  ]);
  const content = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!-- Content Security Policy (CSP Generator) -->',
    '<configuration>',
    '  <system.webServer>',
    '    <httpProtocol>',
    '      <customHeaders>',
    ...entries,
    '      </customHeaders>',
    '    </httpProtocol>',
    '  </system.webServer>',
    '</configuration>',
    '',
  ].join('\n');
  return { filename: EXPORT_FILENAMES.iis, content, warnings, headers };
}

/** Directives a policy delivered in <meta> cannot use (CSP3 §3.3): browsers ignore them there. */
export const META_IGNORED_DIRECTIVES = ['frame-ancestors', 'report-uri', 'report-to', 'sandbox'] as const;

export function exportMeta(rules: CspRules, options: ExportOptions = {}): PolicyExport {
  const opts = exportOptionsSchema.parse(options);
  // The rules' names are a user's: a dictionary, so `kept['__proto__'] = …` stores a key, not a prototype.
  const kept = dictionary<string[]>();
  const warnings: string[] = [];
  for (const [directive, sources] of Object.entries(rules)) {
    if ((META_IGNORED_DIRECTIVES as readonly string[]).includes(directive)) {
      warnings.push(`${directive} was left out: browsers ignore it in a <meta> policy. Send it as a header.`);
    } else {
      kept[directive] = sources;
    }
  }
  if (opts.reportTo) warnings.push('Reporting (report-to) is not available from a <meta> policy.');
  for (const h of opts.extraHeaders) {
    warnings.push(
      `${h.name}: ${h.value} cannot be delivered by a <meta> tag and is left out: send it as an HTTP header.`,
    );
  }
  // Without a reporting destination a report-only policy has no effect; and <meta> cannot be report-only.
  if (opts.reportOnly) {
    warnings.push(
      'Browsers ignore Content-Security-Policy-Report-Only in a <meta> tag, so this tag does nothing. Use a header to test in report-only mode.',
    );
  }
  const rendered = renderPolicy(kept);
  warnings.push(...rendered.warnings);
  warnings.push('Place the tag at the top of <head>: it does not apply to anything before it.');
  const content = `<meta http-equiv="${headerName(opts.reportOnly)}" content="${escapeAttribute(rendered.value)}">\n`;
  return { filename: EXPORT_FILENAMES.meta, content, warnings, headers: [] };
}

/**
 * csp-policy.txt: the header on the first line, with its name, so whether the policy is enforced or
 * report-only travels with it (`Content-Security-Policy: …` or `Content-Security-Policy-Report-Only: …`);
 * when the policy reports through the Reporting API, the Reporting-Endpoints header to send with it
 * follows after a blank line.
 */
export function exportPlain(rules: CspRules, options: ExportOptions = {}): PolicyExport {
  const { headers, warnings } = prepare(rules, options, ['cloudfront', 'proxy-buffer']);
  const [policy, ...rest] = headers.map((h) => `${h.name}: ${h.value}`);
  const content = rest.length ? `${policy}\n\n${rest.join('\n')}\n` : `${policy}\n`;
  return { filename: EXPORT_FILENAMES.plain, content, warnings, headers };
}

export function exportPolicy(
  format: ExportFormat,
  rules: CspRules,
  options: ExportOptions = {},
): PolicyExport {
  switch (format) {
    case 'apache':
      return exportApache(rules, options);
    case 'nginx':
      return exportNginx(rules, options);
    case 'iis':
      return exportIis(rules, options);
    case 'meta':
      return exportMeta(rules, options);
    case 'plain':
      return exportPlain(rules, options);
  }
}
