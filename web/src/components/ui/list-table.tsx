// The table of a card's rows, edge to edge in the card: a header row in small capitals over rows split by
// rules, and the chevron link that opens a row.
import { ChevronRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { cn } from '@/lib/class-names';

export function ListTable({
  head,
  children,
  testId,
}: {
  /** The header cells (`<th scope="col">`). */
  head: ReactNode;
  /** The body rows. */
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className="-mx-5 overflow-x-auto sm:-mx-6">
      <table className="w-full text-sm" data-testid={testId}>
        <thead>
          <tr className="border-y border-border bg-slate-50/80 text-left text-xs font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase">
            {head}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">{children}</tbody>
      </table>
    </div>
  );
}

/** A header cell: its text, and when it shows (`sm`/`md`: from that width up; phones fold it into a row). */
export interface Column {
  label: string;
  from?: 'sm' | 'md';
}

const SHOWN_FROM = { sm: 'hidden sm:table-cell', md: 'hidden md:table-cell' } as const;

/**
 * The header cells of a table whose first column is flush with the card's edge and whose last, unlabelled
 * one holds each row's actions.
 */
export function HeaderCells({ columns }: { columns: readonly Column[] }) {
  return (
    <>
      {columns.map((c, i) => (
        <th
          key={c.label}
          scope="col"
          className={`${i === 0 ? 'py-2 pr-3 pl-5 sm:pl-6' : 'px-3 py-2'} ${c.from ? SHOWN_FROM[c.from] : ''}`}
        >
          {c.label}
        </th>
      ))}
      <th scope="col" className="py-2 pr-5 pl-3 sm:pr-6">
        <span className="sr-only">Actions</span>
      </th>
    </>
  );
}

/**
 * Makes a link cover its whole row, so a row that lights up under the mouse opens when clicked anywhere:
 * put it on the row's main link, and `relative` on the row (`<tr>`).
 */
export const ROW_LINK_STRETCH = 'after:absolute after:inset-0';

/** An icon-only link to a row's screen; `label` is its accessible name. */
export function RowChevronLink({ to, label, className }: { to: string; label: string; className?: string }) {
  return (
    <Link
      to={to}
      aria-label={label}
      className={cn(
        'inline-flex size-8 items-center justify-center rounded-md text-slate-400 transition-colors hover:bg-slate-100 hover:text-foreground',
        className,
      )}
    >
      <ChevronRight className="size-4" aria-hidden="true" />
    </Link>
  );
}
