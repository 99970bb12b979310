// Whose alert settings a card changes: a domain's own, or a team's (for every domain that follows it). The
// webhook and "Send test" calls and the cache keys they refresh differ; the screens do not.
export type AlertScope = { kind: 'domain'; id: string } | { kind: 'team'; id: string };

export const domainScope = (id: string): AlertScope => ({ kind: 'domain', id });
export const teamScope = (id: string): AlertScope => ({ kind: 'team', id });
