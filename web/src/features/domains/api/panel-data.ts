// What the domain screen's Scheduled Analyses card shows first, read before its first render, from a module
// of its own: the schemas that check the answers run in a task before the panel's components do (see
// domain-panels.tsx).
import type { QueryClient } from '@tanstack/react-query';
import { scheduleQueryOptions } from './get-schedule';

export const prefetchScheduleCard = (queryClient: QueryClient, domainId: string) =>
  queryClient.prefetchQuery(scheduleQueryOptions(domainId));
