// Which external scripts a page includes with Subresource Integrity: the `src` of every <script> element of
// the rendered DOM that carries a non-empty integrity attribute. An enforced Integrity-Policy
// (blocked-destinations=(script)) refuses every other script, so the configuration audit counts the
// scripts without it (shared/src/configurations/site-facts.ts). Read from the DOM at the end of a visit:
// scripts a page inserted and removed again are not seen, and count as without integrity.

/** Script elements read per page: a page cannot make the list grow without end. */
export const MAX_INTEGRITY_SCRIPTS_PER_PAGE = 500;
const MAX_URL_CHARS = 2048;

export const INTEGRITY_SCRIPTS_EXPRESSION = `(function () {
  var out = [];
  var scripts = document.querySelectorAll('script[src][integrity]');
  for (var i = 0; i < scripts.length && out.length < ${MAX_INTEGRITY_SCRIPTS_PER_PAGE}; i++) {
    if (!String(scripts[i].getAttribute('integrity') || '').trim()) continue;
    var src = scripts[i].src;
    if (typeof src === 'string') out.push(src.slice(0, ${MAX_URL_CHARS + 1}));
  }
  return out;
})()`;

/** The page's answer kept as far as it is a bounded list of http(s) URLs (it is page input). */
export function integrityScriptUrls(value: unknown): Set<string> {
  const out = new Set<string>();
  if (!Array.isArray(value)) return out;
  for (const url of value.slice(0, MAX_INTEGRITY_SCRIPTS_PER_PAGE)) {
    if (typeof url === 'string' && url.length <= MAX_URL_CHARS && /^https?:\/\//i.test(url)) out.add(url);
  }
  return out;
}
