// What the verified policy still blocked: per item its directive, the blocked URL (or inline / eval), the
// first characters of the code when the browser gave them, the page it happened on, and the engine
// when it was not Chromium (Firefox's verification).
import type { BlockedItem } from '@csp/shared/schemas/analysis';
import { pathOf } from '@/lib/format';
import { engineName } from '../utils/verification';

export function RemainingViolationsList({ items }: { items: BlockedItem[] }) {
  return (
    <ul
      className="flex flex-col gap-1.5"
      aria-label="Violations that remain"
      data-testid="remaining-violations"
    >
      {items.map((item, index) => (
        <li
          // Items may repeat on different pages; the position keeps keys unique.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders
          key={index}
          className="flex flex-col gap-1 rounded-md bg-white/80 px-2.5 py-2 ring-1 ring-amber-200"
          data-testid="remaining-violation"
        >
          <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
            <span className="font-mono text-xs font-semibold text-amber-900">{item.directive}</span>
            <span className="text-xs text-amber-900/70">blocked</span>
            <code className="min-w-0 font-mono text-xs [overflow-wrap:anywhere] text-amber-950">
              {item.blocked}
            </code>
            {item.engine && item.engine !== 'chromium' ? (
              <span className="rounded bg-amber-100 px-1 text-[11px] font-medium text-amber-900">
                in {engineName(item.engine)}
              </span>
            ) : null}
          </div>
          {item.sample ? (
            <code className="block rounded bg-amber-50 px-1.5 py-1 font-mono text-[11px] [overflow-wrap:anywhere] text-amber-950/90">
              {item.sample}
            </code>
          ) : null}
          <span className="truncate font-mono text-[11px] text-amber-900/70" title={item.page}>
            on {pathOf(item.page)}
          </span>
        </li>
      ))}
    </ul>
  );
}
