// Inline code whose hash changed between two loads of a page: it cannot be allowed by hash. Per item the
// directive, the first characters of the code, the page and on how many pages code of this shape was seen.
import type { UnstableInline } from '@csp/shared/csp/stability';
import { countOf, pathOf } from '@/lib/format';

export function UnstableInlineList({ items }: { items: UnstableInline[] }) {
  return (
    <ul
      className="flex flex-col gap-1"
      aria-label="Inline code that changes on every load"
      data-testid="unstable-inline"
    >
      {items.map((item) => (
        <li
          key={`${item.directive} ${item.page} ${item.sample}`}
          className="flex min-w-0 flex-col gap-1 rounded-md bg-amber-50/70 px-2.5 py-1.5 ring-1 ring-amber-200"
          data-testid="unstable-item"
        >
          <span className="font-mono text-[11px] font-semibold text-amber-900">{item.directive}</span>
          <code className="line-clamp-2 font-mono text-[11px] text-amber-950 [overflow-wrap:anywhere]">
            {item.sample}
          </code>
          <span className="truncate text-[11px] text-amber-900/70" title={item.page}>
            on <span className="font-mono">{pathOf(item.page)}</span>
            {item.pages > 1 ? ` and ${countOf(item.pages - 1, 'more page')}` : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
