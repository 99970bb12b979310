// /admin: the admin panel for role admin; anyone else is told plainly that it is not for them (the API
// refuses them too: 403 on every admin route).
import { ShieldX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { BackLink } from '@/components/ui/back-link';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { AdminScreen } from '@/features/admin/components/admin-screen';
import { useUser } from '@/features/auth/api/get-user';

export function AdminRoute() {
  const user = useUser().data;
  if (!user) return <FullScreenLoading />;
  if (user.role !== 'admin') {
    return (
      <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
        <BackLink />
        <Card>
          <CardContent
            className="flex flex-col items-center gap-4 px-6 py-14 text-center sm:py-16"
            data-testid="admin-refused"
          >
            <span className="flex size-12 items-center justify-center rounded-full bg-red-50 text-red-600 ring-1 ring-red-100">
              <ShieldX className="size-6" aria-hidden="true" />
            </span>
            <h1 className="text-2xl font-semibold tracking-tight">Admin access required</h1>
            <p className="max-w-md text-sm text-muted-foreground">
              The admin panel is for administrators. Your account does not have that role; an administrator
              can grant it.
            </p>
            <Link to="/dashboard" className={buttonVariants({ variant: 'outline' })}>
              Back to Dashboard
            </Link>
          </CardContent>
        </Card>
      </div>
    );
  }
  return <AdminScreen me={user} />;
}
