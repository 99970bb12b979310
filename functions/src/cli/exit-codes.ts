// The CLI's exit codes, one definition: every command's --help and the README print this table, and a
// pipeline step branches on them.
export const EXIT = {
  /** Done; the policy holds / the served policy matches. */
  ok: 0,
  /** Done, and what was found fails the step: drift, no policy served, violations left after verification. */
  found: 1,
  /** The command line was wrong (unknown flag, missing argument, missing environment variable). */
  usage: 2,
  /** The work could not be done: the site or the API unreachable, an HTTP error, a refused token, a failed crawl. */
  failure: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0  ok: the policy was generated and verified / the served policy matches
  1  found: drift, no policy served, or violations left after verification
  2  usage error: unknown command or flag, missing argument or environment variable
  3  failure: the site or the API could not be reached or refused the request`;

/** A wrong command line: exit 2 with this message. */
export class UsageError extends Error {}

/** Work that could not be done: exit 3 with this message. */
export class FailureError extends Error {}
