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

export function cn(...classes: Array<string | false | null | undefined>): string {
  const tokens = classes.filter(Boolean).join(' ').split(/\s+/).filter(Boolean);
  const lastIndex = new Map<string, number>();
  tokens.forEach((token, index) => {
    const colon = token.lastIndexOf(':');
    const variant = colon === -1 ? '' : token.slice(0, colon + 1);
    const group = groupOf(token.slice(colon + 1));
    if (group) lastIndex.set(`${variant}${group}`, index);
  });
  return tokens
    .filter((token, index) => {
      const colon = token.lastIndexOf(':');
      const group = groupOf(token.slice(colon + 1));
      return !group || lastIndex.get(`${token.slice(0, colon + 1)}${group}`) === index;
    })
    .join(' ');
}
