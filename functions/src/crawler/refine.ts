// One refinement round after verification: what the verification's pages loaded and ran (under the
// generated policy) is added to the crawl's artifact, page by page, so the policy generated again allows
// what the first try blocked. Pure. Unstable code stays unstable: the caller marks the result again.
import type { CrawlArtifact, Observation } from '@csp/shared/csp/artifact';
import { observationKey } from './classify';

export function refineArtifact(
  artifact: CrawlArtifact,
  verified: readonly { url: string; observations: readonly Observation[] }[],
): CrawlArtifact {
  const pages = artifact.pages.map((p) => ({ ...p, observations: [...p.observations] }));
  for (const { url, observations } of verified) {
    let page = pages.find((p) => p.finalUrl === url);
    if (!page) {
      page = { url, finalUrl: url, status: 200, observations: [] };
      pages.push(page);
    }
    const known = new Set(page.observations.map(observationKey));
    for (const o of observations) {
      if (known.has(observationKey(o))) continue;
      known.add(observationKey(o));
      page.observations.push({ ...o, page: page.url });
    }
  }
  return { ...artifact, pages };
}
