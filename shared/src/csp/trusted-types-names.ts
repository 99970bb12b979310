// The `trusted-types` directive's list: the policy names a page's code may create with
// trustedTypes.createPolicy, and the keywords the Trusted Types spec allows beside them. Names come from a
// user or from a crawled page (the dry run's createPolicy names), so each is checked against the spec's
// grammar before it reaches a header, and the list is bounded. Pure.
import * as z from 'zod';
import { TRUSTED_TYPES_LIMITS } from '../schemas/trusted-types';

/** tt-policy-name = 1*( ALPHA / DIGIT / "-" / "#" / "=" / "_" / "/" / "@" / "." / "%" ) (Trusted Types §4.1). */
export const TT_POLICY_NAME = /^[A-Za-z0-9\-#=_/@.%]+$/;
export const TT_ALLOW_DUPLICATES = "'allow-duplicates'";
export const TT_NONE = "'none'";

/** A name or keyword the list may hold. `*` (any name) is left out: it gives up what the list is for. */
export function isTrustedTypesToken(token: string): boolean {
  return (
    token === TT_ALLOW_DUPLICATES ||
    token === TT_NONE ||
    (token.length <= TRUSTED_TYPES_LIMITS.policyNameChars && TT_POLICY_NAME.test(token))
  );
}

export const trustedTypesPoliciesSchema = z
  .array(
    z
      .string()
      .max(TRUSTED_TYPES_LIMITS.policyNameChars, 'A Trusted Types policy name is too long')
      .refine(
        isTrustedTypesToken,
        "A Trusted Types policy name has letters, digits and - # = _ / @ . % only (or is 'allow-duplicates' or 'none')",
      ),
    { message: 'trustedTypesPolicies must be a list of policy names' },
  )
  .max(
    TRUSTED_TYPES_LIMITS.policyNames,
    `At most ${TRUSTED_TYPES_LIMITS.policyNames} Trusted Types policy names`,
  )
  .refine((names) => !names.includes(TT_NONE) || names.length === 1, {
    message: "'none' cannot stand beside policy names",
  });

/**
 * The directive's sources: the names without duplicates, in the order given. Empty: no `trusted-types`
 * directive at all, so any policy name may be created (only the sinks are guarded).
 */
export function trustedTypesSources(names: readonly string[]): string[] {
  return [...new Set(names.filter(isTrustedTypesToken))];
}

/** The names a crawl saw created that the directive can carry (a hostile page may name anything). */
export function offeredPolicyNames(seen: readonly string[] | undefined | null): string[] {
  return trustedTypesSources((seen ?? []).filter((n) => n !== TT_NONE && n !== TT_ALLOW_DUPLICATES)).slice(
    0,
    TRUSTED_TYPES_LIMITS.policyNames,
  );
}

export const TRUSTED_TYPES_MODES = ['off', 'report-only', 'enforce'] as const;
export const trustedTypesModeSchema = z.enum(TRUSTED_TYPES_MODES, {
  message: "trustedTypes must be 'off', 'report-only' or 'enforce'",
});
export type TrustedTypesMode = z.infer<typeof trustedTypesModeSchema>;
