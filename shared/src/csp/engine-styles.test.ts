// Inline styles only a second engine had (marked by Firefox's verification, `engine: 'firefox'`): the
// directive gets 'unsafe-inline' like any unstable style, but the finding says why no hash can hold here.
import { describe, expect, it } from 'vitest';
import type { CrawlArtifact, Observation } from './artifact';
import { generatePolicy } from './generate';

const SITE = 'https://site.example';
const H1 = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
const H2 = 'sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=';

type Inline = Omit<Extract<Observation, { type: 'inline' }>, 'page'>;

function crawl(observations: Inline[]): CrawlArtifact {
  const page = `${SITE}/editor`;
  return {
    origin: SITE,
    pages: [
      {
        url: page,
        finalUrl: page,
        status: 200,
        observations: observations.map((o) => ({ page, ...o }) as Observation),
      },
    ],
    errors: [],
  };
}

const firefoxStyle: Inline = {
  type: 'inline',
  directive: 'style-src-elem',
  hash: H1,
  sample: 'img:-moz-broken { -moz-force-broken-im',
  shape: 'moz',
  unstable: true,
  engine: 'firefox',
};

describe('inline styles only Firefox has', () => {
  it("get 'unsafe-inline' with a finding that names them, the page and why", () => {
    const { rules, findings } = generatePolicy(crawl([firefoxStyle]));
    expect(rules['style-src']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    const engine = findings.filter((f) => f.code === 'engine-inline-style');
    expect(engine).toHaveLength(1);
    expect(engine[0]).toMatchObject({ severity: 'low', directive: 'style-src', value: "'unsafe-inline'" });
    expect(engine[0]!.description).toContain('only Firefox has');
    expect(engine[0]!.description).toContain('img:-moz-broken');
    expect(engine[0]!.description).toContain(`${SITE}/editor`);
    expect(engine[0]!.description).toContain('40-character sample gives no hash');
    expect(findings.some((f) => f.code === 'unstable-inline-style')).toBe(false);
  });

  it('style= attributes too, each kind with its own finding beside the per-load ones', () => {
    const { rules, findings } = generatePolicy(
      crawl([
        { ...firefoxStyle, directive: 'style-src-attr', shape: 'attr', sample: 'width: 8.43359375px' },
        {
          type: 'inline',
          directive: 'style-src-elem',
          hash: H2,
          sample: '.x{left:3px}',
          shape: 'layout',
          unstable: true,
        },
      ]),
    );
    expect(rules['style-src-attr']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    expect(rules['style-src']).toContain("'unsafe-inline'");
    expect(findings.filter((f) => f.code === 'engine-inline-style').map((f) => f.directive)).toEqual([
      'style-src-attr',
    ]);
    expect(findings.filter((f) => f.code === 'unstable-inline-style').map((f) => f.directive)).toEqual([
      'style-src',
    ]);
  });

  it('a style the crawl also found unstable is explained as unstable, not as Firefox-only', () => {
    const { engine: _, ...inChromiumToo } = firefoxStyle;
    const { findings } = generatePolicy(crawl([firefoxStyle, { ...inChromiumToo, hash: H2 }]));
    expect(findings.some((f) => f.code === 'engine-inline-style')).toBe(false);
    expect(findings.some((f) => f.code === 'unstable-inline-style')).toBe(true);
  });
});
