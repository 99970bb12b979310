import { useState } from 'react';
import { AppProvider } from './provider';
import { AppRouter, createAppRouter } from './router';

export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider onLoggedOut={() => void router.navigate('/auth', { replace: true })}>
      <AppRouter router={router} />
    </AppProvider>
  );
}
