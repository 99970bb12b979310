// What the domain screen's Alerts panel shows first, read before its first render, from a module of its own:
// the schemas that check the answers run in a task before the panel's components do (see domain-panels.tsx).
import type { QueryClient } from '@tanstack/react-query';
import { alertSettingsQueryOptions } from './alert-settings';
import { alertDeliveriesQueryOptions, alertsQueryOptions } from './get-alerts';

/** The settings, and the alerts raised and their deliveries beside them. */
export const prefetchAlertsPanel = (queryClient: QueryClient, domainId: string) =>
  Promise.all([
    queryClient.prefetchQuery(alertSettingsQueryOptions(domainId)),
    queryClient.prefetchQuery(alertsQueryOptions(domainId)),
    queryClient.prefetchQuery(alertDeliveriesQueryOptions(domainId)),
  ]);
