// What a crawl saw, kept after the crawl for judging violation reports: the site's origin, the pages, and
// the inline code and eval samples per page. Reports carry only the first 40 characters of code, so the
// samples are what a report can be matched against; the policy itself answers for URLs.
import * as z from 'zod';
import type { CrawlArtifact } from '../csp/artifact';

export const KNOWLEDGE_LIMITS = { sampleChars: 80, pagesPerItem: 20, items: 5000, pages: 1000 } as const;

export const crawlCodeSchema = z.object({
  directive: z.string(),
  /** 'eval' for eval-like code, otherwise the inline item's hash (`sha256-…`). */
  hash: z.string(),
  sample: z.string(),
  pages: z.array(z.string()),
});
export type CrawlCode = z.infer<typeof crawlCodeSchema>;

export const crawlKnowledgeSchema = z.object({
  analysisId: z.string(),
  origin: z.string(),
  pages: z.array(z.string()),
  code: z.array(crawlCodeSchema),
});
export type CrawlKnowledge = z.infer<typeof crawlKnowledgeSchema>;

export function crawlKnowledge(analysisId: string, artifact: CrawlArtifact): CrawlKnowledge {
  const L = KNOWLEDGE_LIMITS;
  const code = new Map<string, CrawlCode>();
  const pages = new Set<string>();
  for (const page of artifact.pages) {
    if (pages.size < L.pages) pages.add(page.finalUrl);
    for (const o of page.observations) {
      if (o.type !== 'inline' && o.type !== 'eval') continue;
      const directive = o.type === 'eval' ? 'eval' : o.directive;
      const hash = o.type === 'eval' ? 'eval' : o.hash;
      const sample = (o.sample ?? '').slice(0, L.sampleChars);
      const key = `${directive} ${hash} ${sample}`;
      let item = code.get(key);
      if (!item) {
        if (code.size >= L.items) continue;
        item = { directive, hash, sample, pages: [] };
        code.set(key, item);
      }
      if (item.pages.length < L.pagesPerItem && !item.pages.includes(page.finalUrl)) {
        item.pages.push(page.finalUrl);
      }
    }
  }
  return { analysisId, origin: artifact.origin, pages: [...pages], code: [...code.values()] };
}
