// What the API answers and the domain screen says about a domain that cannot be scanned or changed. Apart
// from the domain's zod schemas (domain.ts): the domain screen's first view loads no zod.

/** Why an inactive domain cannot be scanned (the API's answer and the domain screen's line). */
export const INACTIVE_DOMAIN =
  'This domain is inactive, so it is not scanned and its violation reports are refused. Activate it to run an analysis.';

/** The answer (403) to a team member's change of a team domain, and the domain screen's line. */
export const READ_ONLY_MESSAGE =
  "This domain belongs to your team's owner: members can see it but not change it";
