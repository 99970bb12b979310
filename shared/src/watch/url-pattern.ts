// URL patterns of script authorization rules: `*` stands for any run of characters (so
// `https://cdn.example.com/app/bundle.*.js` covers every version of a content-hashed bundle); everything else
// matches itself. Matched by the two-pointer wildcard algorithm (no regular expression built from user input,
// so no pattern can make matching slow: at worst pattern length × URL length steps).
export const URL_PATTERN_MAX_CHARS = 2_048;

export function matchesUrlPattern(pattern: string, url: string): boolean {
  if (pattern.length > URL_PATTERN_MAX_CHARS || url.length > URL_PATTERN_MAX_CHARS) return false;
  let p = 0;
  let u = 0;
  let star = -1;
  let resume = 0;
  while (u < url.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === url[u]) {
      p++;
      u++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = u;
    } else if (star >= 0) {
      p = star + 1;
      u = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
