// TanStack Query defaults from spec section 7: data fresh for 5 minutes, no refetch on window focus,
// no retries. The current-user query overrides these (always stale, refetch on focus).
import { QueryClient } from '@tanstack/react-query';

export const FIVE_MINUTES = 5 * 60 * 1000;

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: FIVE_MINUTES, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}
