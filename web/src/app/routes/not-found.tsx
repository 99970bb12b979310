// Any path outside the route table.
import { ArrowLeft, FileQuestion } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

export function NotFoundRoute() {
  const { pathname } = useLocation();
  return (
    <div className="flex min-h-screen w-full items-center justify-center bg-background px-4 py-10">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col gap-5 pt-6 sm:pt-6">
          <div className="flex items-center gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-red-50 text-destructive ring-1 ring-red-100">
              <FileQuestion className="size-5" aria-hidden="true" />
            </span>
            <h1 className="text-2xl font-semibold tracking-tight">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-muted-foreground">
            Did you forget to add the page to the router? No route matches{' '}
            <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-foreground break-all">
              {pathname}
            </code>
            .
          </p>
          <Link to="/" className={buttonVariants({ variant: 'outline', className: 'self-start' })}>
            <ArrowLeft aria-hidden="true" />
            Back to home
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
