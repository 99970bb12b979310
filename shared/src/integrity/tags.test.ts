import { describe, expect, it } from 'vitest';
import type { SriResource, SubresourceIntegrity } from '../schemas/subresource-integrity';
import { integrityListing, integrityTag } from './tags';

const ready = (over: Partial<SriResource>): SriResource => ({
  kind: 'script',
  url: 'https://cdn.test/lib@1.2.3/lib.js',
  sha384: 'sha384-AAAA',
  ready: true,
  crossorigin: 'anonymous',
  reasons: [],
  pageCount: 1,
  ...over,
});

describe('integrityTag', () => {
  it('writes the attributes the proposal gives, and none for a file SRI is not safe for', () => {
    expect(integrityTag(ready({}))).toBe(
      '<script src="https://cdn.test/lib@1.2.3/lib.js" integrity="sha384-AAAA" crossorigin="anonymous"></script>',
    );
    expect(
      integrityTag(
        ready({ kind: 'stylesheet', url: 'https://shop.test/a.0e5c7a9f1b.css', crossorigin: null }),
      ),
    ).toBe('<link rel="stylesheet" href="https://shop.test/a.0e5c7a9f1b.css" integrity="sha384-AAAA">');
    expect(integrityTag(ready({ ready: false, reasons: ['no-version'] }))).toBeNull();
  });

  it('escapes what the site served: no URL ends the attribute, a comment or opens a tag', () => {
    const url = `https://cdn.test/x.3f9a1c2b.js?a="><script>alert(1)</script><!--&b='--> `;
    expect(integrityTag(ready({ url }))).toBe(
      '<script src="https://cdn.test/x.3f9a1c2b.js?a=&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!--&amp;b=&#39;--&gt; " integrity="sha384-AAAA" crossorigin="anonymous"></script>',
    );
    const proposal: SubresourceIntegrity = {
      resources: [
        ready({ url }),
        ready({ url: `${url}2`, ready: false, sha384: null, reasons: ['no-cors'] }),
      ],
      resourceCount: 3,
      templates: [{ page: 'https://shop.test/--><script>x</script>', pageCount: 3, resources: [0, 1] }],
      templateCount: 2,
    };
    const listing = integrityListing(proposal, {
      site: 'https://shop.test',
      analysisId: 'a1',
      completedAt: null,
    });
    // Everything the site chose is inside an attribute or a comment, and nothing it chose closes either.
    const outside = listing.replace(/<!--[\s\S]*?-->/g, '').replace(/"[^"]*"/g, '""');
    expect(outside).not.toMatch(/<script>|alert|<!--|-->/);
    expect(listing.match(/<script /g)).toHaveLength(1);
    expect(listing).toContain(
      '<!-- Template 1: https://shop.test/--&gt;&lt;script&gt;x&lt;/script&gt; and 2 more pages -->',
    );
    expect(listing).toContain('a cross-origin script with integrity needs Access-Control-Allow-Origin -->');
    expect(listing).toContain(
      '<!-- Not listed: 1 smaller template and 1 file loaded on the fewest pages. -->',
    );
  });
});
