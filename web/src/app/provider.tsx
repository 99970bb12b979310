// App-wide providers: the query client, an error boundary and the toaster.
import { QueryClientProvider } from '@tanstack/react-query';
import { Component, type ErrorInfo, type ReactNode, useState } from 'react';
import { MainErrorFallback } from '@/components/errors/main-error-fallback';
import { Toaster } from '@/components/ui/toast';
import { getUserQueryOptions } from '@/features/auth/api/get-user';
import { createQueryClient } from '@/lib/query-client';

class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <MainErrorFallback /> : this.props.children;
  }
}

export function AppProvider({ children, onLoggedOut }: { children: ReactNode; onLoggedOut?: () => void }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient({ onLoggedOut });
    // Every screen first asks who is signed in: ask now, while the screen's modules load, not after them.
    void client.prefetchQuery(getUserQueryOptions());
    return client;
  });
  return (
    <ErrorBoundary>
      <QueryClientProvider client={queryClient}>
        {children}
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  );
}
