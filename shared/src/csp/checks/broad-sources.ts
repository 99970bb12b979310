// Sources that allow far more than a site uses: '*', whole schemes, wildcard hosts.
import { isSchemeSource, SCRIPT_DIRECTIVES } from '../directives';
import type { PolicyFinding, Severity } from '../finding';
import { auditFinding, type PolicyCheck } from './check';

/** Where a broad source runs code or plugins. */
const CODE_DIRECTIVES = new Set<string>(['default-src', 'object-src', 'base-uri', ...SCRIPT_DIRECTIVES]);
const NETWORK_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:']);
/** Schemes whose content anyone can write: as bad as '*' for code. */
const CONTENT_SCHEMES = new Set(['data:', 'blob:', 'filesystem:']);
const REPORTING = new Set(['report-uri', 'report-to']);

/**
 * In script-src, default-src, object-src and base-uri:
 * high for `*`, a bare network scheme or data:/blob: (any site, or any string, becomes allowed code).
 *   Fires on `script-src 'self' https:` and `script-src data:`.
 * medium for a wildcard host (`*.example.com`): every subdomain, including user content and takeovers.
 *   Fires on `script-src *.cdn.example`.
 * Elsewhere (images, fonts, connect…) low for `*` and bare network schemes: data can go anywhere.
 *   Fires on `img-src *`.
 */
export const broadSourcesCheck: PolicyCheck = (policy) => {
  const findings: PolicyFinding[] = [];
  for (const [directive, sources] of Object.entries(policy.effective)) {
    if (REPORTING.has(directive)) continue;
    const code = CODE_DIRECTIVES.has(directive);
    for (const source of sources) {
      const lower = source.toLowerCase();
      const scheme = isSchemeSource(source);
      let severity: Severity | undefined;
      let description = '';
      if (source === '*' || (scheme && NETWORK_SCHEMES.has(lower))) {
        severity = code ? 'high' : 'low';
        description = code
          ? `${source} allows code from any site: an attacker who can inject a tag loads their script from their own server.`
          : `${source} allows any site here, so the directive restricts nothing.`;
      } else if (code && scheme && CONTENT_SCHEMES.has(lower)) {
        severity = 'high';
        description = `${source} allows code an attacker can write inline (e.g. <script src="${lower}…">).`;
      } else if (code && /^(?:[a-z][a-z0-9+.-]*:\/\/)?\*\./i.test(source)) {
        severity = 'medium';
        description = `${source} allows every subdomain, including ones that host user content or can be taken over.`;
      }
      if (!severity) continue;
      findings.push(
        auditFinding({
          severity,
          directive,
          value: source,
          code: 'broad-source',
          description,
          fix: 'List the exact origins the site uses (the generated policy does), or use a nonce with strict-dynamic for scripts.',
        }),
      );
    }
  }
  return findings;
};
