// What the domain screen's Security Reports panel shows first, read before its first render, from a module of
// its own: the schemas that check the answers run in a task before the panel's components do (see
// domain-panels.tsx).

import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { QueryClient } from '@tanstack/react-query';
import { reportClearQueryOptions } from './clear-reports';
import { reportSuggestionsQueryOptions } from './get-report-suggestions';
import { type ReportWindow, reportsQueryOptions } from './get-reports';

/** The window the panel opens on. */
export const DEFAULT_REPORT_WINDOW = REPORT_LIMITS.defaultWindowDays as ReportWindow;

export const prefetchReportsPanel = (queryClient: QueryClient, domainId: string) =>
  Promise.all([
    queryClient.prefetchInfiniteQuery(reportsQueryOptions(domainId, DEFAULT_REPORT_WINDOW)),
    queryClient.prefetchQuery(reportSuggestionsQueryOptions(domainId, DEFAULT_REPORT_WINDOW)),
    queryClient.prefetchQuery(reportClearQueryOptions(domainId)),
  ]);
