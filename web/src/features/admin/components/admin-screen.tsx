// /admin (spec sections 2 and 6): the 'Admin Access' badge, tabs Users, Domains and Analyses with their
// totals, changing a user's role, and deleting users, domains and analyses after a confirmation, with the
// spec's toasts. Domains and analyses are listed by their owner's id.
import type { PublicUser, Role } from '@csp/shared/schemas/auth';
import { ShieldCheck, Trash2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { PageHeader } from '@/components/layouts/app-layout';
import { BackLink } from '@/components/ui/back-link';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/input';
import { ListTable } from '@/components/ui/list-table';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatCount, formatDate } from '@/lib/format';
import {
  type AdminList,
  type AdminListName,
  useAdminDelete,
  useAdminList,
  useChangeRole,
} from '../api/admin';

const WHAT_GOES: Record<AdminListName, string> = {
  users:
    'The user and all of their domains, analyses, configurations and reports will be deleted permanently.',
  domains:
    'The domain and all of its analyses, configurations and security reports will be deleted permanently.',
  analyses: 'The analysis will be deleted permanently; configurations based on it keep their rules.',
};

function DeleteButton({ list, id, label }: { list: AdminListName; id: string; label: string }) {
  const remove = useAdminDelete(list);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="text-destructive hover:bg-red-50 hover:text-destructive"
        onClick={() => setOpen(true)}
        aria-label={`Delete ${label}`}
        data-testid="admin-delete"
      >
        <Trash2 aria-hidden="true" />
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!remove.isPending) setOpen(next);
        }}
        title={`Delete ${label}?`}
        description={WHAT_GOES[list]}
        confirmLabel="Delete"
        destructive
        pending={remove.isPending}
        onConfirm={() => remove.mutate(id, { onSettled: () => setOpen(false) })}
      />
    </>
  );
}

function RoleSelect({ user, self }: { user: PublicUser; self: boolean }) {
  const change = useChangeRole();
  return (
    <Select
      value={user.role}
      disabled={self || change.isPending}
      aria-label={`Role of ${user.username}`}
      className="h-8 w-28"
      title={self ? 'You cannot change your own role' : undefined}
      onChange={(e) => change.mutate({ id: user.id, role: e.target.value as Role })}
      data-testid="admin-role"
    >
      <option value="user">user</option>
      <option value="admin">admin</option>
    </Select>
  );
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
    <div className="flex flex-col gap-2" aria-busy="true">
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-8 w-full" />
      <Skeleton className="h-8 w-full" />
    </div>
  );
}

const th = 'px-5 py-2.5 font-medium sm:px-6';
const td = 'px-5 py-3 sm:px-6';

type AdminItem<N extends AdminListName> = AdminList<N>['items'][number];

/** One admin list: loading, its rows a page at a time, Load more. */
function AdminTable<N extends AdminListName>({
  list,
  columns,
  row,
}: {
  list: N;
  /** The header cells' texts; a last, unlabelled column holds the row's actions. */
  columns: readonly string[];
  row: (item: AdminItem<N>) => ReactNode;
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
              <th key={c} scope="col" className={th}>
                {c}
              </th>
            ))}
            <th scope="col" className={th}>
              <span className="sr-only">Actions</span>
            </th>
          </>
        }
      >
        {items.map(row)}
      </ListTable>
      <LoadMore query={q} />
    </div>
  );
}

function UsersTable({ me }: { me: PublicUser }) {
  return (
    <AdminTable
      list="users"
      columns={['User', 'Email', 'Role', 'Joined']}
      row={(u) => (
        <tr key={u.id} data-testid="admin-row" data-id={u.id}>
          <td className={td}>
            <div className="font-medium text-foreground">{u.username}</div>
            <div className="text-xs text-muted-foreground">
              {[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}
            </div>
          </td>
          <td className={`${td} break-all`}>{u.email ?? '—'}</td>
          <td className={td}>
            <RoleSelect user={u} self={u.id === me.id} />
          </td>
          <td className={`${td} whitespace-nowrap`}>{formatDate(u.createdAt)}</td>
          <td className={`${td} text-right`}>
            {u.id === me.id ? null : <DeleteButton list="users" id={u.id} label={`user ${u.username}`} />}
          </td>
        </tr>
      )}
    />
  );
}

function DomainsTable() {
  return (
    <AdminTable
      list="domains"
      columns={['Domain', 'Owner id', 'Status', 'Scans']}
      row={(d) => (
        <tr key={d.id} data-testid="admin-row" data-id={d.id}>
          <td className={td}>
            <div className="font-medium text-foreground">{d.name}</div>
            <div className="font-mono text-xs break-all text-muted-foreground">{d.url}</div>
          </td>
          <td className={`${td} font-mono text-xs`}>{d.userId}</td>
          <td className={td}>
            <Badge variant={d.isActive ? 'success' : 'secondary'}>{d.isActive ? 'Active' : 'Inactive'}</Badge>
          </td>
          <td className={`${td} tabular-nums`}>{formatCount(d.totalScans)}</td>
          <td className={`${td} text-right`}>
            <DeleteButton list="domains" id={d.id} label={`domain ${d.name}`} />
          </td>
        </tr>
      )}
    />
  );
}

function AnalysesTable() {
  return (
    <AdminTable
      list="analyses"
      columns={['URL', 'Owner id', 'Status', 'Created']}
      row={(a) => (
        <tr key={a.id} data-testid="admin-row" data-id={a.id}>
          <td className={`${td} font-mono text-xs break-all`}>{a.url}</td>
          <td className={`${td} font-mono text-xs`}>{a.userId}</td>
          <td className={td}>
            <AnalysisStatusBadge status={a.status} />
          </td>
          <td className={`${td} whitespace-nowrap`}>{formatDate(a.createdAt)}</td>
          <td className={`${td} text-right`}>
            <DeleteButton list="analyses" id={a.id} label="this analysis" />
          </td>
        </tr>
      )}
    />
  );
}

function Total({ list }: { list: AdminListName }) {
  const q = useAdminList(list);
  const total = q.data?.pages[0]?.total;
  return (
    <span className="ml-1.5 tabular-nums text-muted-foreground">
      {total === undefined ? '' : formatCount(total)}
    </span>
  );
}

export function AdminScreen({ me }: { me: PublicUser }) {
  const [tab, setTab] = useState<AdminListName>('users');
  return (
    <div className="flex flex-col gap-6">
      <BackLink />
      <PageHeader
        title="Admin Panel"
        description="Every user, domain and analysis of the product."
        actions={
          <Badge variant="purple" data-testid="admin-access">
            <ShieldCheck className="size-3" aria-hidden="true" />
            Admin Access
          </Badge>
        }
      />
      <Tabs value={tab} onValueChange={(v) => setTab(v as AdminListName)}>
        <TabsList label="Admin lists" className="self-start">
          <TabsTrigger value="users">
            Users
            <Total list="users" />
          </TabsTrigger>
          <TabsTrigger value="domains">
            Domains
            <Total list="domains" />
          </TabsTrigger>
          <TabsTrigger value="analyses">
            Analyses
            <Total list="analyses" />
          </TabsTrigger>
        </TabsList>
        <Card>
          <CardContent className="pt-0 sm:pt-0">
            <TabsContent value="users">
              <UsersTable me={me} />
            </TabsContent>
            <TabsContent value="domains">
              <DomainsTable />
            </TabsContent>
            <TabsContent value="analyses">
              <AnalysesTable />
            </TabsContent>
          </CardContent>
        </Card>
      </Tabs>
    </div>
  );
}
