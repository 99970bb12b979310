import { Spinner } from '@/components/ui/spinner';

/** Spec: a full-screen 'Loading...' while the authentication state (or a screen's data) loads. */
export function FullScreenLoading() {
  return (
    <div className="flex min-h-screen w-full items-center justify-center bg-background" aria-busy="true">
      <div className="flex items-center gap-3 text-sm font-medium text-muted-foreground" role="status">
        <Spinner />
        <span>Loading...</span>
      </div>
    </div>
  );
}
