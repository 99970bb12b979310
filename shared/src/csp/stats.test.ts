import { describe, expect, it } from 'vitest';
import type { CrawlArtifact, Observation } from './artifact';
import { auditPolicy } from './audit';
import { generatePolicy } from './generate';
import { computeResourceStats } from './stats';

const SITE = 'https://site.example';
const H = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

type Obs = Observation extends infer O ? (O extends Observation ? Omit<O, 'page'> : never) : never;

function crawl(pages: Array<[string, Obs[]]>): CrawlArtifact {
  return {
    origin: SITE,
    pages: pages.map(([url, obs]) => ({
      url,
      finalUrl: url,
      status: 200,
      observations: obs.map((o) => ({ ...o, page: url }) as Observation),
    })),
    errors: [],
  };
}

describe('computeResourceStats', () => {
  const artifact = crawl([
    [
      `${SITE}/`,
      [
        { type: 'url', directive: 'img-src', url: `${SITE}/logo.png` },
        { type: 'url', directive: 'script-src-elem', url: 'https://cdn.example/a.js' },
        { type: 'url', directive: 'connect-src', url: 'wss://live.example/s' },
        { type: 'url', directive: 'img-src', url: 'data:image/png;base64,AAAA' },
        { type: 'inline', directive: 'script-src-elem', hash: H },
        { type: 'eval' },
      ],
    ],
    [
      `${SITE}/about`,
      [
        { type: 'url', directive: 'img-src', url: `${SITE}/logo.png` },
        { type: 'url', directive: 'font-src', url: 'https://cdn.example/f.woff2' },
        { type: 'inline', directive: 'script-src-elem', hash: H },
      ],
    ],
  ]);

  it('counts distinct resources (URLs and inline hashes) and distinct host names', () => {
    const { rules } = generatePolicy(artifact);
    const stats = computeResourceStats(artifact, auditPolicy(rules));
    // logo, a.js, socket, data: image, f.woff2, one inline script
    expect(stats.totalResources).toBe(6);
    // site.example, cdn.example, live.example
    expect(stats.uniqueDomains).toBe(3);
    // 'unsafe-eval' is the one issue of this policy
    expect(stats.securityIssues).toBe(1);
  });

  it('an empty crawl has no resources and no issues', () => {
    const empty = crawl([]);
    expect(computeResourceStats(empty, auditPolicy(generatePolicy(empty).rules))).toEqual({
      totalResources: 0,
      uniqueDomains: 0,
      securityIssues: 0,
    });
  });
});
