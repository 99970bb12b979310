// Any path outside the route table: '404 Page Not Found' (spec section 2), said for people: what happened,
// and the way back (the dashboard when signed in, inside the usual frame with the user menu; else home).
import { ArrowLeft, FileQuestion } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { FullScreenLoading } from '@/components/layouts/full-screen-loading';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useUser } from '@/features/auth/api/get-user';
import { SignedInFrame } from './signed-in-layout';

function NotFoundCard({ home, homeLabel }: { home: string; homeLabel: string }) {
  const { pathname } = useLocation();
  return (
    <Card className="w-full max-w-md" data-testid="not-found">
      <CardContent className="flex flex-col gap-5 pt-6 sm:pt-6">
        <div className="flex items-center gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 ring-1 ring-slate-200">
            <FileQuestion className="size-5" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-semibold tracking-tight">404 Page Not Found</h1>
        </div>
        <p className="text-sm text-muted-foreground">
          There is no page at{' '}
          <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs [overflow-wrap:anywhere] text-foreground">
            {pathname}
          </code>
          . The link may be mistyped, or the page may have moved or been removed.
        </p>
        <Link to={home} className={buttonVariants({ variant: 'outline', className: 'self-start' })}>
          <ArrowLeft aria-hidden="true" />
          {homeLabel}
        </Link>
      </CardContent>
    </Card>
  );
}

function Centered({ children }: { children: ReactNode }) {
  return <div className="flex flex-1 items-center justify-center py-10">{children}</div>;
}

export function NotFoundRoute() {
  const user = useUser();
  if (user.isLoading) return <FullScreenLoading />;
  if (user.data) {
    return (
      <SignedInFrame>
        <Centered>
          <NotFoundCard home="/dashboard" homeLabel="Back to Dashboard" />
        </Centered>
      </SignedInFrame>
    );
  }
  return (
    <div className="flex min-h-screen w-full flex-col bg-background px-4">
      <Centered>
        <NotFoundCard home="/" homeLabel="Back to home" />
      </Centered>
    </div>
  );
}
