// What the domain screen's Scripts panel shows first, read before its first render, from a module of its own:
// the schemas that check the answers run in a task before the panel's components do (see domain-panels.tsx).
import type { QueryClient } from '@tanstack/react-query';
import { scriptsQueryOptions } from './get-scripts';

/** With no filter, as the panel opens. */
export const prefetchScriptsPanel = (queryClient: QueryClient, domainId: string) =>
  queryClient.prefetchInfiniteQuery(scriptsQueryOptions(domainId, {}));
