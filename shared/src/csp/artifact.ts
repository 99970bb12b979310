// What the crawler gathers (Lighthouse's "artifact"): a typed record of everything each page loaded or ran,
// classified by the browser itself. The crawler only fills this in; policy generation, grading and
// statistics are pure functions over it. Extend only with optional fields so stored crawls stay readable.
import * as z from 'zod';

/** The effective directives a browser reports in `securitypolicyviolation` events, plus navigation ones. */
export const OBSERVED_DIRECTIVES = [
  'script-src-elem',
  'script-src-attr',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'media-src',
  'connect-src',
  'frame-src',
  'child-src',
  'worker-src',
  'manifest-src',
  'object-src',
  'form-action',
  'base-uri',
  'script-src',
  'style-src',
  'default-src',
] as const;
export const observedDirectiveSchema = z.enum(OBSERVED_DIRECTIVES);
export type ObservedDirective = z.infer<typeof observedDirectiveSchema>;

const where = {
  /** URL of the crawled document the observation was made on. */
  page: z.string(),
  sourceFile: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  /** Only seen after the crawler acted on the page (opened, hovered, focused, selected, clicked). */
  interaction: z.literal(true).optional(),
};

export const observationSchema = z.discriminatedUnion('type', [
  /** A resource fetched (or a navigation/form target) under the given directive. */
  z.object({ type: z.literal('url'), directive: observedDirectiveSchema, url: z.string(), ...where }),
  /** Inline code: <script>/<style> bodies (…-elem) or on*= handlers, style= attributes, javascript: URLs (…-attr). */
  z.object({
    type: z.literal('inline'),
    directive: z.enum(['script-src-elem', 'script-src-attr', 'style-src-elem', 'style-src-attr']),
    /** CSP hash source without quotes, e.g. `sha256-…` (base64 of the SHA-256 of the exact text). */
    hash: z.string(),
    /** First characters of the code, for people reading the result. */
    sample: z.string().optional(),
    /**
     * Optional (added by the crawler): where the code sits. 'javascript-url' hashes are of the whole
     * percent-decoded URL (`javascript:` included); Chromium checks them against script-src-elem and
     * honours the hash only when that directive also has 'unsafe-hashes'.
     */
    kind: z.enum(['element', 'attribute', 'javascript-url']).optional(),
    /**
     * Set by the stability check: the code's hash changed when the page was loaded again (or the code has
     * the shape of code that did), so the hash cannot match the next visitor's page.
     */
    unstable: z.literal(true).optional(),
    /**
     * Set by the crawler on inline styles only: the text is not in the HTML the server sent for its
     * document, so a script inserted or rewrote it (an engine-specific branch, a measured size, a rule
     * added as icons appear). What a script writes can differ in another engine, version or state, so no
     * hash taken by one crawl can be trusted to hold (gather.ts treats it as unstable).
     */
    inserted: z.literal(true).optional(),
    /**
     * Set by verification in a second engine: only that engine had this inline style (a script's path for
     * that engine, or values from its layout), so the crawl could not show that a hash of it holds.
     */
    engine: z.literal('firefox').optional(),
    /** inlineShape() of the code: equal for code that differs only in numbers and tokens (see stability.ts). */
    shape: z.string().optional(),
    ...where,
  }),
  /** eval(), new Function(), setTimeout(string): needs 'unsafe-eval'. */
  z.object({ type: z.literal('eval'), sample: z.string().optional(), ...where }),
  /** WebAssembly compilation: needs 'wasm-unsafe-eval'. */
  z.object({ type: z.literal('wasm-eval'), ...where }),
]);
export type Observation = z.infer<typeof observationSchema>;

export const pageArtifactSchema = z.object({
  /** The URL requested. */
  url: z.string(),
  /** The URL after redirects. */
  finalUrl: z.string(),
  status: z.number().int(),
  observations: z.array(observationSchema),
  /** The site's own CSP header, if it sent one (set aside during the crawl, kept for comparison). */
  originalPolicy: z.string().optional(),
  /** Why the capture did not finish (after one retry): its observations may be missing some. */
  incomplete: z.string().optional(),
});
export type PageArtifact = z.infer<typeof pageArtifactSchema>;

/** Inline code as captured on a second load of a page (stability check): directive, hash, first characters. */
export const rerenderItemSchema = z.object({
  directive: z.enum(['script-src-elem', 'script-src-attr', 'style-src-elem', 'style-src-attr']),
  hash: z.string(),
  sample: z.string().optional(),
  shape: z.string().optional(),
});
export type RerenderItem = z.infer<typeof rerenderItemSchema>;

/** A browser window's size and pixel density (CSS px, device pixels per CSS px). */
export const viewportSchema = z.object({
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  deviceScaleFactor: z.number().positive(),
});
export type Viewport = z.infer<typeof viewportSchema>;

/**
 * A page loaded a second time in a fresh browser context, with its inline code (stability check). The
 * second load uses another viewport (`viewport`, when set) so code whose values come from the layout
 * differs too.
 */
export const rerenderSchema = z.object({
  page: z.string(),
  inline: z.array(rerenderItemSchema),
  viewport: viewportSchema.optional(),
});
export type Rerender = z.infer<typeof rerenderSchema>;

/**
 * A favicon the site points to (`<link rel~=icon href>`) or the origin's `/favicon.ico`, as the crawler
 * fetched it. Firefox and WebKit check favicons against img-src, Chromium exempts /favicon.ico and a
 * headless crawl fetches none, so no observation ever shows them (engines/table.ts, 'favicon-img-src').
 */
export const faviconSchema = z.object({
  url: z.string(),
  /** HTTP status of the crawler's fetch (0: not fetched, e.g. refused by the address guard). */
  status: z.number().int(),
  /** Where the URL came from: a page's <link rel~=icon>, or the origin's default /favicon.ico. */
  from: z.enum(['link', 'default']),
});
export type Favicon = z.infer<typeof faviconSchema>;

export const crawlArtifactSchema = z.object({
  /** Origin that 'self' stands for: the origin of the analysed site's URL. */
  origin: z.string(),
  pages: z.array(pageArtifactSchema),
  errors: z.array(z.string()),
  /** Optional: crawls stored before favicons were checked have none. */
  favicons: z.array(faviconSchema).optional(),
});
export type CrawlArtifact = z.infer<typeof crawlArtifactSchema>;
