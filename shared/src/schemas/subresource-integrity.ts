// The Subresource Integrity proposal of an analysis: for each external script and stylesheet the crawl saw,
// the `integrity` and `crossorigin` attributes to add where SRI is safe (the URL names one immutable file and
// the browser may read it), or the reasons it is not; and the page templates (pages loading the same set of
// them) the download lists tags for. A hostile site decides how many files and pages there are and how long
// their URLs are: everything is bounded here, and the analysis item (400 KB) holds it.
import * as z from 'zod';

export const SRI_LIMITS = {
  /** Files kept per analysis (the most widely loaded first; the rest are counted). */
  resources: 100,
  /** A longer URL is left out (counted): it is not worth a tag, and the item must stay small. */
  urlChars: 1_024,
  /** Page templates kept (the largest first). */
  templates: 20,
  /**
   * The whole proposal as JSON: it joins the analysis item beside the policies (the crawl writer refuses a
   * result over 256 KB), so long URLs cannot make a completed crawl unwritable. Over it, the least loaded
   * files go.
   */
  jsonChars: 64 * 1024,
} as const;

export const SRI_RESOURCE_KINDS = ['script', 'stylesheet'] as const;
export type SriResourceKind = (typeof SRI_RESOURCE_KINDS)[number];

/** Why SRI is not proposed for a file (texts in shared/src/integrity/proposal.ts). */
export const SRI_REASONS = [
  'unread',
  'content-differs',
  'no-version',
  'floating',
  'tag-manager',
  'major-only',
  'no-cors',
  'cors-unknown',
] as const;
export type SriReason = (typeof SRI_REASONS)[number];

export const sriResourceSchema = z.object({
  kind: z.enum(SRI_RESOURCE_KINDS),
  url: z.string().max(SRI_LIMITS.urlChars),
  /** `sha384-<base64>` of the body as received; null when never read or when reads differed. */
  sha384: z.string().max(100).nullable(),
  /** SRI is safe: add `integrity` (the sha384) and, when set, `crossorigin`. */
  ready: z.boolean(),
  /** `anonymous` for a cross-origin file (its response must be readable: CORS); null for a same-origin one. */
  crossorigin: z.literal('anonymous').nullable(),
  /** Empty when ready; otherwise every reason, the one to fix first first. */
  reasons: z.array(z.enum(SRI_REASONS)).max(SRI_REASONS.length),
  /** Pages that loaded it. */
  pageCount: z.number().int().nonnegative(),
});
export type SriResource = z.infer<typeof sriResourceSchema>;

export const sriTemplateSchema = z.object({
  /** The first page (in crawl order) of the template: its name, with the page count. */
  page: z.string().max(SRI_LIMITS.urlChars),
  pageCount: z.number().int().positive(),
  /** Indexes into `resources`, in the order the first page loaded them. */
  resources: z.array(z.number().int().nonnegative()).max(SRI_LIMITS.resources),
});
export type SriTemplate = z.infer<typeof sriTemplateSchema>;

export const subresourceIntegritySchema = z
  .object({
    resources: z.array(sriResourceSchema).max(SRI_LIMITS.resources),
    /** Distinct external scripts and stylesheets seen (resources lists the first SRI_LIMITS.resources). */
    resourceCount: z.number().int().nonnegative(),
    templates: z.array(sriTemplateSchema).max(SRI_LIMITS.templates),
    /** Templates found (templates lists the largest SRI_LIMITS.templates). */
    templateCount: z.number().int().nonnegative(),
  })
  .refine((s) => s.templates.every((t) => t.resources.every((i) => i < s.resources.length)), {
    message: 'A template names a file the proposal does not hold',
  });
export type SubresourceIntegrity = z.infer<typeof subresourceIntegritySchema>;
