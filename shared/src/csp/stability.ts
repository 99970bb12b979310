// Stability of inline code: a hash allows exactly one text, so inline code whose text changes on every load
// (a CSRF token in a script, layout-measured sizes in an editor's style= attributes) can never be allowed
// by hash for the next visitor. The crawler loads a sample of pages a second time in a fresh browser
// context (`Rerender`); this compares the two loads and marks such code `unstable` on every page where
// code of the same shape appears (pages of the same template were not all re-rendered). Pure.

import * as z from 'zod';
import type { CrawlArtifact, Observation, Rerender, RerenderItem } from './artifact';

/** Inline code whose hash changed between two loads of a page (or matches code that did). */
export const unstableInlineSchema = z.object({
  directive: z.enum(['script-src-elem', 'script-src-attr', 'style-src-elem', 'style-src-attr']),
  page: z.string(),
  sample: z.string(),
  /** Pages where code of this shape was seen (the first few). */
  pages: z.number().int(),
});
export type UnstableInline = z.infer<typeof unstableInlineSchema>;

type InlineObservation = Extract<Observation, { type: 'inline' }>;
type InlineDirective = InlineObservation['directive'];

/**
 * The code with everything that typically differs between loads of the same template made equal: every
 * run of word characters that contains a digit (numbers, sizes such as 114px, hex and base64 tokens,
 * generated class names) becomes `0`, whitespace runs become one space. The crawler hashes this to the
 * observation's `shape`.
 */
export function normalizeInlineShape(text: string): string {
  return text
    .replace(/[A-Za-z0-9_$+/=.-]*\d[A-Za-z0-9_$+/=.-]*/g, '0')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What identifies "the same code" for stability: the shape when the crawler gave one, else the hash. */
function shapeKey(directive: string, item: { hash: string; shape?: string | undefined }): string {
  return `${directive}\u0000${item.shape ?? `#${item.hash}`}`;
}

interface UnstableGroup {
  directive: InlineDirective;
  sample: string;
  page: string;
  pages: Set<string>;
}

export interface StabilityResult {
  artifact: CrawlArtifact;
  /** One entry per unstable shape, with a page and how many pages carry it. */
  unstable: UnstableInline[];
}

/**
 * Compares each re-rendered page with its first capture, per directive. Code of the first load whose hash
 * is gone on the second, where the second has new code of the same shape, is unstable; what is left on
 * both sides (hashes gone, new hashes, no shape in common) is paired in order and unstable too. Code that
 * is only gone, with nothing new in its place, stays stable: dropping a good script's hash would break
 * the site, and a missing item is more often timing than change. Then every inline observation of an
 * unstable shape, on any page, is marked `unstable`.
 */
export function markUnstableInline(artifact: CrawlArtifact, rerenders: readonly Rerender[]): StabilityResult {
  const unstableKeys = new Set<string>();
  for (const rerender of rerenders) {
    const page = artifact.pages.find((p) => p.finalUrl === rerender.page || p.url === rerender.page);
    if (!page) continue;
    const first = page.observations.filter((o): o is InlineObservation => o.type === 'inline');
    const directives = new Set<InlineDirective>([
      ...first.map((o) => o.directive),
      ...rerender.inline.map((i) => i.directive),
    ]);
    for (const directive of directives) {
      const before = first.filter((o) => o.directive === directive);
      const after = rerender.inline.filter((i) => i.directive === directive);
      const afterHashes = new Set(after.map((i) => i.hash));
      const beforeHashes = new Set(before.map((o) => o.hash));
      const gone = before.filter((o) => !afterHashes.has(o.hash));
      let fresh: RerenderItem[] = after.filter((i) => !beforeHashes.has(i.hash));
      const unpaired: InlineObservation[] = [];
      for (const g of gone) {
        const match = g.shape !== undefined ? fresh.findIndex((f) => f.shape === g.shape) : -1;
        if (match >= 0) {
          unstableKeys.add(shapeKey(directive, g));
          fresh = fresh.filter((_, i) => i !== match);
        } else unpaired.push(g);
      }
      for (let i = 0; i < Math.min(unpaired.length, fresh.length); i++) {
        unstableKeys.add(shapeKey(directive, unpaired[i]!));
        unstableKeys.add(shapeKey(directive, fresh[i]!));
      }
    }
  }
  if (unstableKeys.size === 0) return { artifact, unstable: [] };

  const groups = new Map<string, UnstableGroup>();
  const pages = artifact.pages.map((page) => ({
    ...page,
    observations: page.observations.map((o) => {
      if (o.type !== 'inline') return o;
      const key = shapeKey(o.directive, o);
      if (!unstableKeys.has(key)) return o;
      let group = groups.get(key);
      if (!group) {
        group = { directive: o.directive, sample: o.sample ?? '', page: page.finalUrl, pages: new Set() };
        groups.set(key, group);
      }
      group.pages.add(page.finalUrl);
      return { ...o, unstable: true as const };
    }),
  }));
  const unstable = [...groups.values()].map((g) => ({
    directive: g.directive,
    page: g.page,
    sample: g.sample,
    pages: g.pages.size,
  }));
  return { artifact: { ...artifact, pages }, unstable };
}
