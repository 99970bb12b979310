// Screens of the route table that are not built yet: signed-in only, and saying so plainly.
import { Construction } from 'lucide-react';
import { Link } from 'react-router-dom';
import { BackLink } from '@/components/ui/back-link';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';

function ComingSoon({ title, description, detail }: { title: string; description: string; detail?: string }) {
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <BackLink />
      <Card>
        <CardContent className="flex flex-col items-center gap-4 px-6 py-14 text-center sm:py-16">
          <span className="flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-600 ring-1 ring-amber-100">
            <Construction className="size-6" aria-hidden="true" />
          </span>
          <div className="flex flex-col gap-2">
            <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
            <p className="text-sm text-muted-foreground">{description}</p>
            {detail ? <p className="font-mono text-xs text-muted-foreground">{detail}</p> : null}
          </div>
          <p className="max-w-md text-sm text-muted-foreground">
            This screen is coming soon. It is not available yet in this version of CSP Generator.
          </p>
          <Link to="/dashboard" className={buttonVariants({ variant: 'outline' })}>
            Back to Dashboard
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}

export function AdminRoute() {
  return <ComingSoon title="Admin Panel" description="Manage all users, domains and analyses." />;
}
