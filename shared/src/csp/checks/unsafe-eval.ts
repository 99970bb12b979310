// 'unsafe-eval' and 'unsafe-hashes' in script directives.
import { SCRIPT_DIRECTIVES, UNSAFE_EVAL, UNSAFE_HASHES } from '../directives';
import type { PolicyFinding } from '../finding';
import { auditFinding, type PolicyCheck } from './check';

const SCRIPTS = new Set<string>(['default-src', ...SCRIPT_DIRECTIVES]);

/**
 * medium: 'unsafe-eval' lets strings become code (eval, new Function, setTimeout with a string), so a
 *   DOM-based injection into such a string runs. Fires on `script-src 'self' 'unsafe-eval'`.
 * low: 'unsafe-hashes' lets the hashed event handlers and style= attributes run wherever they are injected,
 *   not only where the page put them. Fires on `script-src-attr 'unsafe-hashes' 'sha256-…'`.
 */
export const unsafeEvalCheck: PolicyCheck = (policy) => {
  const findings: PolicyFinding[] = [];
  for (const [directive, sources] of Object.entries(policy.effective)) {
    if (!SCRIPTS.has(directive)) continue;
    if (sources.includes(UNSAFE_EVAL)) {
      findings.push(
        auditFinding({
          severity: 'medium',
          directive,
          value: UNSAFE_EVAL,
          code: 'unsafe-eval',
          description:
            "'unsafe-eval' lets strings become code (eval, new Function, setTimeout with a string): an injection that reaches such a string runs.",
          fix: 'Replace eval-style calls in your code or in the library that makes them (many have a CSP build), then remove it.',
        }),
      );
    }
    if (sources.includes(UNSAFE_HASHES)) {
      findings.push(
        auditFinding({
          severity: 'low',
          directive,
          value: UNSAFE_HASHES,
          code: 'unsafe-hashes',
          description:
            "'unsafe-hashes' lets the allowed event handlers run wherever they are injected, not only where your pages put them.",
          fix: 'Move inline event handlers (onclick=…) into script files with addEventListener.',
        }),
      );
    }
  }
  return findings;
};
