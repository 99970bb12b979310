// /admin (spec sections 2 and 6): the 'Admin Access' badge, tabs Users, Domains and Analyses with their
// totals, changing a user's role, and deleting users, domains and analyses after a confirmation, with the
// spec's toasts. Domains and analyses are listed by their owner's id; each list is one AdminTable.
import type { PublicUser } from '@csp/shared/schemas/auth';
import { ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { AnalysisStatusBadge } from '@/components/analysis-status-badge';
import { PageHeader } from '@/components/layouts/app-layout';
import { BackLink } from '@/components/ui/back-link';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { formatCount, formatDate } from '@/lib/format';
import { type AdminListName, useAdminList } from '../api/admin';
import { DeleteButton, RoleSelect } from './admin-row-actions';
import { AdminTable } from './admin-table';

function UsersTable({ me }: { me: PublicUser }) {
  return (
    <AdminTable
      list="users"
      columns={[
        {
          label: 'User',
          cell: (u) => (
            <>
              <div className="font-medium text-foreground">{u.username}</div>
              <div className="text-xs text-muted-foreground">
                {[u.firstName, u.lastName].filter(Boolean).join(' ') || '—'}
              </div>
            </>
          ),
        },
        { label: 'Email', className: '[overflow-wrap:anywhere]', cell: (u) => u.email ?? '—' },
        { label: 'Role', cell: (u) => <RoleSelect user={u} self={u.id === me.id} /> },
        { label: 'Joined', className: 'whitespace-nowrap', cell: (u) => formatDate(u.createdAt) },
      ]}
      actions={(u) =>
        u.id === me.id ? null : <DeleteButton list="users" id={u.id} label={`user ${u.username}`} />
      }
    />
  );
}

function DomainsTable() {
  return (
    <AdminTable
      list="domains"
      columns={[
        {
          label: 'Domain',
          cell: (d) => (
            <>
              <div className="font-medium text-foreground">{d.name}</div>
              <div className="font-mono text-xs [overflow-wrap:anywhere] text-muted-foreground">{d.url}</div>
            </>
          ),
        },
        { label: 'Owner id', className: 'font-mono text-xs', cell: (d) => d.userId },
        {
          label: 'Status',
          cell: (d) => (
            <Badge variant={d.isActive ? 'success' : 'secondary'}>{d.isActive ? 'Active' : 'Inactive'}</Badge>
          ),
        },
        { label: 'Scans', className: 'tabular-nums', cell: (d) => formatCount(d.totalScans) },
      ]}
      actions={(d) => <DeleteButton list="domains" id={d.id} label={`domain ${d.name}`} />}
    />
  );
}

function AnalysesTable() {
  return (
    <AdminTable
      list="analyses"
      columns={[
        { label: 'URL', className: 'font-mono text-xs [overflow-wrap:anywhere]', cell: (a) => a.url },
        { label: 'Owner id', className: 'font-mono text-xs', cell: (a) => a.userId },
        { label: 'Status', cell: (a) => <AnalysisStatusBadge status={a.status} /> },
        { label: 'Created', className: 'whitespace-nowrap', cell: (a) => formatDate(a.createdAt) },
      ]}
      actions={(a) => <DeleteButton list="analyses" id={a.id} label="this analysis" />}
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
