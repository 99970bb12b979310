// What the domain screen's Changes panel shows first, read before its first render, from a module of its own:
// the schemas that check the answers run in a task before the panel's components do (see domain-panels.tsx).
import type { QueryClient } from '@tanstack/react-query';
import { changesQueryOptions } from './get-changes';

export const prefetchChangesPanel = (queryClient: QueryClient, domainId: string) =>
  queryClient.prefetchInfiniteQuery(changesQueryOptions(domainId));
