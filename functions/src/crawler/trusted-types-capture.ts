// What one page's capture gives the Trusted Types dry run (shared/src/trusted-types/dry-run.ts): the
// violations of the capture policy's `require-trusted-types-for 'script'` and the policy names the page's
// code created, from the site's own documents only (a third-party frame's library is not the site's code,
// and our policy is not served to it).
import type { PageTrustedTypes } from '@csp/shared/trusted-types/dry-run';
import { isSiteDocument } from './classify';
import type { InstrumentItem } from './instrument';

export function pageTrustedTypes(
  items: readonly InstrumentItem[],
  siteOrigin: string,
): Omit<PageTrustedTypes, 'page'> {
  const violations: PageTrustedTypes['violations'][number][] = [];
  const policyNames: string[] = [];
  for (const item of items) {
    if (!isSiteDocument(item.document, siteOrigin)) continue;
    if (item.k === 'policy-name') policyNames.push(item.name);
    else if (item.k === 'violation' && item.directive === 'require-trusted-types-for') {
      violations.push({
        sample: item.sample,
        sourceFile: item.sourceFile,
        line: item.line,
        column: item.column,
      });
    }
  }
  return { violations, policyNames };
}
