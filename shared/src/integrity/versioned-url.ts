// Whether a script or stylesheet URL names one immutable file: Subresource Integrity pins the bytes, so it is
// safe only where the vendor publishes a new version at a new URL. A URL is versioned when its file name
// carries a content hash (`app.3f9a1c2b.js`, `main-BxK2a9Qw.js`) or a version (`jquery-3.7.1.min.js`), when
// a path segment is an exact version (`/3.7.1/`, `/jquery@3.7.1/`, `/npm/x@1.2.3/`), or when the query
// carries one (`?v=1.2.3`, `?ver=6.4`, `?h=abcdef12`). Decisions where a reading is ambiguous:
// - A major-only path (`/v2/`, `/1/`) or a partial `@` range (`@3`, `@3.7` on jsDelivr/unpkg) names a line
//   of releases that keeps changing: not versioned.
// - A query value counts with one number (`?ver=6.4`, `?v=2`): the site bumps it when the file changes.
// - `latest`, `stable`, `current`, `next` anywhere in the path or a version parameter: not versioned, whatever
//   else the URL says. Tag managers (`gtm.js?id=GTM-…`, `gtag/js?id=G-…`) serve what the container holds now.
// Pure and total: any string in, an answer out.

export type VersionedBy = 'file-hash' | 'file-version' | 'path-version' | 'query-version' | 'query-hash';
export type Unversioned = 'no-version' | 'floating' | 'tag-manager' | 'major-only';

export type VersionedUrl =
  | { versioned: true; by: VersionedBy; token: string }
  | { versioned: false; why: Unversioned };

/** Query parameters sites and CDNs use for a version or a content hash. */
const VERSION_PARAMS = new Set(['v', 'ver', 'version', 'rev', 'build', 'h', 'hash', 'vsn', 'release']);
/** Words that name whatever is current, never one file. */
const FLOATING = new Set(['latest', 'stable', 'current', 'next', 'nightly', 'canary']);

/** A release: 1.2.3, v1.2.3, 1.2.3-beta.1, 1.2.3+build (a full three-part version). */
const FULL_VERSION = /^v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;
/** A number a site bumps: 2, 6.4, 1.2.3, 20240101. */
const QUERY_VERSION = /^v?\d+(?:\.\d+)*(?:[-+_][0-9A-Za-z.-]+)?$/;
/** Hex of a digest or commit (at least 7, git's short form). */
const HEX = /^[0-9a-f]{7,}$/i;
/** A bundler's base64url content hash (Vite, Rollup: 8 characters): upper, lower case and digits mixed. */
const MIXED_HASH = /^(?=.*\d)(?=.*[A-Z])(?=.*[a-z])[0-9A-Za-z]{8,64}$/;
/**
 * A shorter one (6–7, `main-BxK2a9`) only with two digits and two capitals: `Embed2`, `jQuery3` are names.
 */
const SHORT_HASH = /^(?=(?:.*\d){2})(?=(?:.*[A-Z]){2})(?=.*[a-z])[0-9A-Za-z]{6,7}$/;
/** esbuild's base32 hash (`chunk-7XKJ3MWQ.js`): upper case and digits, 8 or more. */
const UPPER_HASH = /^(?=.*\d)(?=.*[A-Z])[0-9A-Z]{8,64}$/;

/** A content hash in a file name (not a word like `es2015`, `polyfills`, `bundle`). */
function isHashToken(token: string): boolean {
  // Hex needs a digit and a letter: `20240101` is a date, `deadbeef`/`facade` could be words.
  const hex = HEX.test(token) && token.length >= 8 && /\d/.test(token) && /[a-f]/i.test(token);
  return hex || MIXED_HASH.test(token) || SHORT_HASH.test(token) || UPPER_HASH.test(token);
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function fileEvidence(name: string): VersionedUrl | null {
  const version = /(?:^|[-_.@])v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)(?=[-_.]|$)/.exec(name);
  if (version?.[1]) return { versioned: true, by: 'file-version', token: version[1] };
  // `name.hash.js`, `name-hash.js`, `name.hash.chunk.js`: the tokens between separators. A base64url hash
  // that itself holds `-` or `_` is missed: the answer errs on "not versioned", which proposes nothing.
  for (const token of name.split(/[.~_-]/)) {
    if (isHashToken(token)) return { versioned: true, by: 'file-hash', token };
  }
  return null;
}

export function versionedUrl(raw: string): VersionedUrl {
  const url = parse(raw);
  if (!url) return { versioned: false, why: 'no-version' };
  const segments = url.pathname.split('/').filter(Boolean).map(decoded);
  const params = [...url.searchParams].map(([k, v]) => [k.toLowerCase(), v] as const);

  if (
    url.pathname.endsWith('/gtm.js') ||
    url.pathname.endsWith('/gtag/js') ||
    params.some(([k, v]) => k === 'id' && /^(?:GTM|G|AW|DC|UA)-/i.test(v))
  ) {
    return { versioned: false, why: 'tag-manager' };
  }
  const floating =
    segments.some(
      (s) => FLOATING.has(s.toLowerCase()) || FLOATING.has(s.split('@')[1]?.toLowerCase() ?? ''),
    ) || params.some(([k, v]) => VERSION_PARAMS.has(k) && FLOATING.has(v.toLowerCase()));
  if (floating) return { versioned: false, why: 'floating' };

  const file = segments.at(-1) ?? '';
  const byFile = fileEvidence(file);
  if (byFile) return byFile;

  let majorOnly = false;
  for (const segment of segments.slice(0, -1)) {
    const at = segment.lastIndexOf('@');
    const version = at > 0 ? segment.slice(at + 1) : segment;
    if (FULL_VERSION.test(version)) return { versioned: true, by: 'path-version', token: version };
    if (/^v\d+(?:\.\d+)?$|^\d{1,3}(?:\.\d+)?$/.test(version)) majorOnly = true;
  }
  // A package at `@3`/`@3.7` in the file segment itself (`/npm/x@3`) names a range too.
  if (/@v?\d+(?:\.\d+)?$/.test(file)) majorOnly = true;
  else if (/@v?\d+\.\d+\.\d+/.test(file)) {
    return { versioned: true, by: 'path-version', token: file.slice(file.lastIndexOf('@') + 1) };
  }

  for (const [key, value] of params) {
    if (!VERSION_PARAMS.has(key) || value === '') continue;
    if (QUERY_VERSION.test(value)) return { versioned: true, by: 'query-version', token: value };
    if (HEX.test(value) || MIXED_HASH.test(value) || UPPER_HASH.test(value)) {
      return { versioned: true, by: 'query-hash', token: value };
    }
  }
  return { versioned: false, why: majorOnly ? 'major-only' : 'no-version' };
}
