// One admin list as a table (spec section 6): its columns' headers and cells, each row's actions in a last,
// unlabelled column, a skeleton while the first page loads and Load more for the next ones.
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { ListTable } from '@/components/ui/list-table';
import { LoadingBlock } from '@/components/ui/loading-block';
import { Skeleton } from '@/components/ui/skeleton';
import { type AdminList, type AdminListName, useAdminList } from '../api/admin';

export type AdminItem<N extends AdminListName> = AdminList<N>['items'][number];

/** A column: its header's text, its cell for an item, and the cell's classes beyond the padding. */
export interface AdminColumn<T> {
  label: string;
  cell: (item: T) => ReactNode;
  className?: string;
}

function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="outline"
      size="sm"
      className="mt-4 self-center"
      onClick={() => void query.fetchNextPage()}
      loading={query.isFetchingNextPage}
    >
      Load more
    </Button>
  );
}

function Loading() {
  return (
    <LoadingBlock className="flex flex-col gap-2" label="Loading...">
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-8 w-full" />
    </LoadingBlock>
  );
}

const th = 'px-5 py-2.5 font-medium sm:px-6';
const td = 'px-5 py-3 sm:px-6';

/** One admin list: loading, its rows a page at a time, Load more. */
export function AdminTable<N extends AdminListName>({
  list,
  columns,
  actions,
}: {
  list: N;
  columns: ReadonlyArray<AdminColumn<AdminItem<N>>>;
  /** The row's actions, in the last column. */
  actions: (item: AdminItem<N>) => ReactNode;
}) {
  const q = useAdminList(list);
  if (q.isLoading) return <Loading />;
  // The pages of this list hold items of its type (the union TypeScript infers over lists is wider).
  const items = (q.data?.pages ?? []).flatMap((p) => p.items as unknown[]) as AdminItem<N>[];
  return (
    <div className="flex flex-col">
      <ListTable
        testId={`admin-${list}`}
        head={
          <>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={th}>
                {c.label}
              </th>
            ))}
            <th scope="col" className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {items.map((item) => (
          <tr key={item.id} data-testid="admin-row" data-id={item.id}>
            {columns.map((c) => (
              <td key={c.label} className={c.className ? `${td} ${c.className}` : td}>
                {c.cell(item)}
              </td>
            ))}
            <td className={`${td} text-right`}>{actions(item)}</td>
          </tr>
        ))}
      </ListTable>
      <LoadMore query={q} />
    </div>
  );
}
