// What the domain screen's rules generator shows first, read before its first render, from a module of its
// own: the schemas that check the answers run in a task before the panel's components do (see
// domain-panels.tsx).
import type { QueryClient } from '@tanstack/react-query';
import { configurationsQueryOptions } from './get-configurations';

export const prefetchRulesGeneratorPanel = (queryClient: QueryClient, domainId: string) =>
  queryClient.prefetchQuery(configurationsQueryOptions(domainId));
