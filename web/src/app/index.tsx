import { useState } from 'react';
import { getUserQueryOptions } from '@/features/auth/api/get-user';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRouter, createAppRouter } from './router';

export function App() {
  const [{ router, queryClient }] = useState(() => {
    const queryClient = createQueryClient({
      onLoggedOut: () => void router.navigate('/auth', { replace: true }),
    });
    // Every screen first asks who is signed in: ask now, while the screen's modules load, not after them.
    void queryClient.prefetchQuery(getUserQueryOptions());
    const router = createAppRouter(queryClient);
    return { router, queryClient };
  });
  return (
    <AppProvider queryClient={queryClient}>
      <AppRouter router={router} />
    </AppProvider>
  );
}
