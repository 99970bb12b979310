// The policy a file gives `check --policy-file`: what the CLI and the product write — a header line
// (`Content-Security-Policy: …` or its Report-Only twin: csp-policy.txt, `crawl --format header`), an nginx
// `add_header` or Apache `Header always set` line of an export — or a bare policy on its first line.
// Pure: the text in, the header and value out.
import { isDirective } from '@csp/shared/csp/directives';

export interface ExpectedPolicy {
  reportOnly: boolean;
  value: string;
}

const HEADER_LINE = /^\s*content-security-policy(-report-only)?\s*:\s*(.+)$/i;
const NGINX_LINE = /^\s*add_header\s+content-security-policy(-report-only)?\s+"((?:[^"\\]|\\.)*)"/i;
const APACHE_LINE =
  /^\s*header\s+(?:always\s+)?set\s+content-security-policy(-report-only)?\s+"((?:[^"\\]|\\.)*)"/i;

export function policyFromFile(text: string): ExpectedPolicy | null {
  const lines = text.split(/\r?\n/);
  for (const line of lines) {
    const header = HEADER_LINE.exec(line);
    if (header) return { reportOnly: Boolean(header[1]), value: header[2]!.trim() };
    const nginx = NGINX_LINE.exec(line);
    if (nginx) return { reportOnly: Boolean(nginx[1]), value: nginx[2]!.replace(/\\(.)/g, '$1') };
    const apache = APACHE_LINE.exec(line);
    if (apache) {
      return {
        reportOnly: Boolean(apache[1]),
        value: apache[2]!.replace(/\\(.)/g, '$1').replace(/%%/g, '%'),
      };
    }
  }
  // A bare policy: the first line that is not a comment and starts with a directive.
  const bare = lines
    .map((l) => l.trim())
    .find((l) => !l.startsWith('#') && isDirective(l.split(/[\s;]/, 1)[0]!.toLowerCase()));
  return bare ? { reportOnly: false, value: bare } : null;
}
