import { TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Shown when rendering throws: a calm message and a way out. */
export function MainErrorFallback() {
  return (
    <div
      className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center"
      role="alert"
    >
      <div className="flex size-12 items-center justify-center rounded-full bg-red-50 text-destructive">
        <TriangleAlert className="size-6" aria-hidden="true" />
      </div>
      <div className="flex flex-col gap-1">
        <h1 className="text-lg font-semibold">Something went wrong</h1>
        <p className="text-sm text-muted-foreground">
          An unexpected error occurred. Reload the page to try again.
        </p>
      </div>
      <Button variant="outline" onClick={() => window.location.assign(window.location.pathname)}>
        Reload
      </Button>
    </div>
  );
}
