// 'unsafe-inline' where a browser honours it, and where it is only a fallback.
import { SCRIPT_DIRECTIVES, STYLE_DIRECTIVES, UNSAFE_INLINE } from '../directives';
import type { PolicyFinding } from '../finding';
import { auditFinding, type PolicyCheck } from './check';

const SCRIPTS = new Set<string>(['default-src', ...SCRIPT_DIRECTIVES]);
const STYLES = new Set<string>(STYLE_DIRECTIVES);

/**
 * high, for scripts: any injected <script> or on*= handler runs. Fires on `script-src 'self' 'unsafe-inline'`.
 * medium, for styles: injected CSS can restyle the page and read attribute values through selectors.
 *   Fires on `style-src 'self' 'unsafe-inline'`.
 * info, when a nonce, a hash or 'strict-dynamic' in the same directive makes CSP2+ browsers ignore it: it
 *   is then only a fallback for very old browsers. Fires on `script-src 'nonce-abc…' 'unsafe-inline'`.
 */
export const unsafeInlineCheck: PolicyCheck = (policy) => {
  const findings: PolicyFinding[] = [];
  for (const [directive, sources] of Object.entries(policy.rules)) {
    if (!sources.includes(UNSAFE_INLINE)) continue;
    const scripts = SCRIPTS.has(directive);
    if (!scripts && !STYLES.has(directive)) continue;
    if (policy.ignored.get(directive)?.has(UNSAFE_INLINE)) {
      findings.push(
        auditFinding({
          severity: 'info',
          directive,
          value: UNSAFE_INLINE,
          code: 'unsafe-inline-fallback',
          description:
            "'unsafe-inline' is ignored here: browsers that support nonces, hashes or 'strict-dynamic' (all current ones) do not apply it. It only keeps very old browsers working.",
          fix: "Nothing to do, or remove 'unsafe-inline' if you do not support browsers older than CSP level 2.",
        }),
      );
      continue;
    }
    findings.push(
      auditFinding(
        scripts
          ? {
              severity: 'high',
              directive,
              value: UNSAFE_INLINE,
              code: 'unsafe-inline',
              description:
                "'unsafe-inline' lets any injected inline <script> or event handler run: most cross-site scripting is not blocked.",
              fix: "Allow your inline scripts by hash or nonce (use the Strict policy or the nonce option), then remove 'unsafe-inline'.",
            }
          : {
              severity: 'medium',
              directive,
              value: UNSAFE_INLINE,
              code: 'unsafe-inline',
              description:
                "'unsafe-inline' lets injected <style> blocks and style= attributes apply: an attacker can restyle the page and leak attribute values through CSS selectors.",
              fix: "Allow inline styles by hash (or nonce) and move style= attributes into classes, then remove 'unsafe-inline'.",
            },
      ),
    );
  }
  return findings;
};
