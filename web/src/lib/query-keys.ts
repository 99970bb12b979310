// The query keys more than one feature reads or invalidates (a team change refreshes the user and the
// domains; the configurations' suggestions share the reports' cache), and how often the reports refresh.
// A feature's own keys stay with its API calls.

/** The current user (null when signed out). */
export const userQueryKey = ['user'] as const;

/** The signed-in user's domains; one domain's key starts with it. */
export const domainsQueryKey = ['domains'] as const;

/** One domain's violation reports; its suggestions' keys start with it. */
export const reportsQueryKey = (domainId: string) => ['domains', domainId, 'uri-reports'] as const;

/** One domain's report suggestions over `days` days (the reports panel's and the configuration's). */
export const reportSuggestionsQueryKey = (domainId: string, days: number) =>
  [...reportsQueryKey(domainId), 'suggestions', days] as const;

/** Reports and their suggestions are refreshed every 30 s (spec section 7). */
export const REPORTS_REFRESH_MS = 30_000;
