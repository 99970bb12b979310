// The favicon check on loopback fixture sites: the icon a page names and the origin's /favicon.ico are
// fetched once the crawl is done, recorded in the artifact, and the generated policy allows them (Firefox
// fetches both under img-src; headless Chromium, which crawls, fetches neither). A favicon the site does not
// serve adds nothing, and the check goes through the SSRF guard.
import { generatePolicy } from '@csp/shared/csp/generate';
import { allowsObservation } from '@csp/shared/csp/match';
import { afterEach, describe, expect, it } from 'vitest';
import { crawlArtifact, runCrawl } from './crawl';
import { checkFavicons, iconHrefs } from './favicons';
import { ICON_PATH } from './fixtures/engines-content';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';
import { createTargetGuard } from './guard';

let sites: FixtureSites | undefined;
afterEach(async () => {
  await sites?.close();
  sites = undefined;
});

const crawlOne = (s: FixtureSites, path: string) =>
  runCrawl({ url: `${s.origins.main}${path}`, maxPages: 1, crawlDelay: 0 }, null, {
    deadline: Date.now() + 90_000,
    allowPrivateTargets: true,
    rerender: false,
    interactionBudgetMs: 0,
  });

const allowsImage = (rules: Record<string, string[]>, url: string, page: string, origin: string) =>
  allowsObservation(rules, { type: 'url', directive: 'img-src', url, page }, origin);

describe('favicons', () => {
  it("the corpus' icon page: its <link rel=icon> and /favicon.ico are recorded, and the policy allows both", async () => {
    sites = await startFixtureSites();
    const o = sites.origins;
    const { state, done } = await crawlOne(sites, '/icon-page');
    expect(done).toBe(true);
    const artifact = crawlArtifact(state);
    expect(artifact.favicons).toEqual([
      { url: `${o.assets}${ICON_PATH}`, status: 200, from: 'link' },
      { url: `${o.main}/favicon.ico`, status: 200, from: 'default' },
    ]);
    // Only an icon token counts: apple-touch-icon is never fetched as a favicon.
    expect(sites.requests.some((r) => r.path === '/icons/not-a-favicon.png')).toBe(false);

    const { rules, findings } = generatePolicy(artifact);
    const page = `${o.main}/icon-page`;
    expect(allowsImage(rules, `${o.assets}${ICON_PATH}`, page, o.main)).toBe(true);
    expect(allowsImage(rules, `${o.main}/favicon.ico`, page, o.main)).toBe(true);
    // Headless Chromium fetched the <link rel=icon> (an observation already allows it); /favicon.ico only
    // the check can allow: without it, 'self' would be missing from img-src.
    expect(findings.filter((f) => f.code === 'favicon-allowed').map((f) => f.value)).toEqual(["'self'"]);
    const { favicons: _, ...unchecked } = artifact;
    expect(allowsImage(generatePolicy(unchecked).rules, `${o.main}/favicon.ico`, page, o.main)).toBe(false);
  }, 120_000);

  it('a site that serves no favicon gets no img-src for one', async () => {
    sites = await startFixtureSites({
      mainOnly: () => ({
        '/': {
          body: `<!doctype html><title>t</title><p>hi</p>`,
        },
      }),
    });
    const { state } = await crawlOne(sites, '/');
    const artifact = crawlArtifact(state);
    expect(artifact.favicons).toEqual([
      { url: `${sites.origins.main}/favicon.ico`, status: 404, from: 'default' },
    ]);
    expect(generatePolicy(artifact).rules['img-src']).toBeUndefined();
  }, 120_000);

  it('goes through the SSRF guard: with private targets refused, loopback icons are not served and get no request', async () => {
    sites = await startFixtureSites();
    const o = sites.origins;
    const before = sites.requests.length;
    const favicons = await checkFavicons({
      origin: o.main,
      links: [`${o.assets}${ICON_PATH}`],
      guard: createTargetGuard({ allowPrivateTargets: false }),
      deadline: Date.now() + 10_000,
    });
    expect(favicons.map((f) => f.status)).toEqual([0, 0]);
    expect(sites.requests.length).toBe(before);
  });

  it('keeps only a short list of http(s) and data: hrefs from what a page answers', () => {
    expect(
      iconHrefs([
        'https://a.example/i.png',
        'data:image/png;base64,AAAA',
        'javascript:alert(1)',
        'file:///etc/passwd',
        42,
        `https://a.example/${'x'.repeat(3000)}`,
      ]),
    ).toEqual(['https://a.example/i.png', 'data:']);
    expect(iconHrefs('nope')).toEqual([]);
    expect(iconHrefs(Array.from({ length: 50 }, (_, i) => `https://a.example/${i}`))).toHaveLength(8);
  });
});
