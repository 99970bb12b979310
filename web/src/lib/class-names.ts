// Joins class names, skipping falsy values. A later utility replaces an earlier one of the same group and
// variant (a small, conservative take on tailwind-merge): `cn('text-base', 'text-2xl')` is `text-2xl`.
const SIZES = /^(xs|sm|base|lg|xl|[2-9]xl)$/;
const TEXT_NON_COLOR = /^(left|center|right|justify|start|end|wrap|nowrap|balance|pretty|ellipsis|clip)$/;
const DISPLAY = new Set([
  'block',
  'inline-block',
  'inline',
  'flex',
  'inline-flex',
  'grid',
  'inline-grid',
  'hidden',
  'table-cell',
  'contents',
]);
const WEIGHTS = /^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/;

function groupOf(utility: string): string | null {
  const negative = utility.startsWith('-') ? utility.slice(1) : utility;
  if (DISPLAY.has(negative)) return 'display';
  if (WEIGHTS.test(negative)) return 'font-weight';
  if (negative.startsWith('text-')) {
    const value = negative.slice(5);
    if (SIZES.test(value) || /^\[\d/.test(value)) return 'text-size';
    if (TEXT_NON_COLOR.test(value)) return 'text-align';
    return 'text-color';
  }
  const match =
    /^(p|px|py|pt|pb|pl|pr|m|mx|my|mt|mb|ml|mr|h|w|size|gap|gap-x|gap-y|rounded|shadow|leading|tracking|bg|self|justify|items)-/.exec(
      negative,
    );
  if (!match) return null;
  const prefix = match[1]!;
  if (prefix === 'bg' && /^bg-(gradient|linear|radial|\[(size|linear|radial))/.test(negative)) return null;
  return prefix;
}

/**
 * The merged classes of a joined class string. The same few hundred strings come back on every render (a
 * Button's variant, a Card's classes): merging each afresh was a measurable part of rendering a screen of
 * a thousand elements on a phone. Bounded: past the limit it starts over.
 */
const merged = new Map<string, string>();
const MERGED_LIMIT = 1000;

export function cn(...classes: Array<string | false | null | undefined>): string {
  const joined = classes.filter(Boolean).join(' ');
  let result = merged.get(joined);
  if (result === undefined) {
    result = merge(joined);
    if (merged.size >= MERGED_LIMIT) merged.clear();
    merged.set(joined, result);
  }
  return result;
}

function merge(joined: string): string {
  const tokens = joined.split(/\s+/).filter(Boolean);
  const keys = tokens.map((token) => {
    const colon = token.lastIndexOf(':');
    const group = groupOf(token.slice(colon + 1));
    return group ? `${token.slice(0, colon + 1)}${group}` : null;
  });
  const lastIndex = new Map<string, number>();
  keys.forEach((key, index) => {
    if (key) lastIndex.set(key, index);
  });
  return tokens.filter((_, index) => !keys[index] || lastIndex.get(keys[index]) === index).join(' ');
}
