import { exportApache, exportNginx, exportPlain } from '@csp/shared/csp/serialize';
import { describe, expect, it } from 'vitest';
import { policyFromFile } from './policy-file';

const rules = { 'default-src': ["'self'"], 'img-src': ['https://img.example.com/a%20b', "'self'"] };
const value = "default-src 'self'; img-src https://img.example.com/a%20b 'self'";

describe('policyFromFile', () => {
  it('reads what the product exports: the header line, nginx and Apache files', () => {
    expect(policyFromFile(exportPlain(rules).content)).toEqual({ reportOnly: false, value });
    expect(policyFromFile(exportNginx(rules, { reportOnly: true }).content)).toEqual({
      reportOnly: true,
      value,
    });
    // Apache doubles % (mod_headers format specifiers): read back as sent.
    expect(policyFromFile(exportApache(rules).content)).toEqual({ reportOnly: false, value });
  });

  it('reads a bare policy, skipping comments, and nothing from a file without one', () => {
    expect(policyFromFile(`# ours\n\n${value}\n`)).toEqual({ reportOnly: false, value });
    expect(policyFromFile('<html>not a policy</html>\n')).toBeNull();
    expect(policyFromFile("import { x } from 'y';\nexport const a = 1;\n")).toBeNull();
    expect(policyFromFile('')).toBeNull();
  });
});
