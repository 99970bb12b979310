// Saved CSP configurations (csp_configurations, spec sections 3, 5 and 7): a domain's policy as a user
// shapes it — rules from a base analysis, custom rules, suggestions taken or ignored, reporting, report-only,
// the server it goes to and a nonce.
import * as z from 'zod';
import { policyAuditSchema } from '../csp/audit-schemas';
import { integrityPolicyModeSchema } from '../csp/integrity-policy';
import { NONCE_BYTES } from '../csp/nonce';
import { trustedTypesModeSchema, trustedTypesPoliciesSchema } from '../csp/trusted-types-names';
import { firstInheritedKey, isInheritedName } from '../maps/dictionary';

export const SERVER_TYPES = ['apache', 'nginx', 'iis'] as const;
export const serverTypeSchema = z.enum(SERVER_TYPES, {
  message: "serverType must be 'apache', 'nginx' or 'iis'",
});
export type ServerType = z.infer<typeof serverTypeSchema>;

/** Every limit of a configuration, in one place (API, panel). The item must stay under DynamoDB's 400 KB. */
export const CONFIGURATION_LIMITS = {
  nameMaxChars: 255,
  descriptionMaxChars: 2000,
  directives: 64,
  sourcesPerDirective: 5000,
  sourceMaxChars: 2048,
  /** cspRules, customRules and ignoredSuggestions together, as JSON. */
  rulesMaxBytes: 300_000,
  /** Configurations per domain. */
  perDomain: 50,
} as const;

const DIRECTIVE_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/** A name a rules map may hold: the pattern below, and no name every object inherits (`constructor`). */
export function isSavableDirectiveName(name: string): boolean {
  return DIRECTIVE_NAME.test(name) && !isInheritedName(name);
}
/**
 * A source a header can carry: visible ASCII without `;` and `,` (they end a directive or a policy), `"`
 * and `\` (no valid source has them, and server configs would need them escaped). Spaces separate sources.
 */
export const SOURCE_TOKEN = /^[!#-+\--:<-[\]-~]+$/;

export const cspSourceSchema = z
  .string()
  .min(1, 'A source cannot be empty')
  .max(CONFIGURATION_LIMITS.sourceMaxChars, 'A source is too long')
  .regex(SOURCE_TOKEN, 'A source cannot contain spaces, quotes ("), backslashes, commas or semicolons');

/**
 * directive → sources, with names and sources a header can carry. A name an object inherits (`constructor`,
 * `__proto__`…) is never a directive: refused with a clear message rather than stored, where it would read
 * as a function or set a prototype (see maps/dictionary.ts). zod's record drops an own `__proto__` key
 * silently, so that one is looked for in the raw input first.
 */
export const ruleMap = (field: string) =>
  z.preprocess(
    (input, ctx) => {
      const inherited = firstInheritedKey(input);
      if (inherited !== undefined) ctx.addIssue({ code: 'custom', message: notADirective(field, inherited) });
      return input;
    },
    z
      .record(
        z.string(),
        z
          .array(cspSourceSchema, { message: `${field}: each directive takes a list of sources` })
          .max(CONFIGURATION_LIMITS.sourcesPerDirective, 'Too many sources in one directive'),
        {
          error: (issue) =>
            issue.input === undefined
              ? `${field} is required`
              : `${field} must map directives to lists of sources`,
        },
      )
      .refine((m) => Object.keys(m).every((k) => DIRECTIVE_NAME.test(k)), {
        message: 'Directive names are lower-case letters, digits and hyphens',
      })
      .refine((m) => Object.keys(m).length <= CONFIGURATION_LIMITS.directives, 'Too many directives'),
  );

function notADirective(field: string, name: string): string {
  return `${field}: '${name}' is not a CSP directive`;
}

export const NONCE_PATTERN = new RegExp(`^[0-9a-f]{${NONCE_BYTES * 2}}$`);

export const configurationMetadataSchema = z.object(
  {
    /** 32 random bytes as 64 hex characters (spec section 9). */
    nonce: z
      .string()
      .regex(NONCE_PATTERN, 'nonce must be 64 hexadecimal characters')
      .nullable()
      .default(null),
    includeNonce: z.boolean().default(false),
    /**
     * Send this policy under Content-Security-Policy-Report-Only (the usual roll-out step), as opposed to the
     * spec's reportOnlyMode, which replaces the policy by a minimal discovery one.
     */
    reportOnlyPolicy: z.boolean().default(false),
    // The integrity options (off by default, so configurations saved before them parse unchanged).
    /** Integrity-Policy(-Report-Only): scripts without integrity metadata are refused (reported). */
    integrityPolicy: integrityPolicyModeSchema.default('off'),
    /** 'report-sha256' in the script directive: visitors' browsers report each script's SHA-256. */
    reportSha256: z.boolean({ message: 'reportSha256 must be true or false' }).default(false),
    /** require-trusted-types-for 'script', enforced or in a report-only policy of its own. */
    trustedTypes: trustedTypesModeSchema.default('off'),
    /** The `trusted-types` names (empty: any policy name may be created). */
    trustedTypesPolicies: trustedTypesPoliciesSchema.default([]),
  },
  { error: 'metadata must be a JSON object' },
);
export type ConfigurationMetadata = z.infer<typeof configurationMetadataSchema>;

/** The spec keeps metadata as a JSON string; the API takes that or the object, and answers the object. */
const metadataInput = z.preprocess((v) => {
  if (typeof v !== 'string') return v ?? {};
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}, configurationMetadataSchema);

export const configurationBodySchema = z
  .object({
    name: z
      .string({ message: 'Please enter a configuration name' })
      .trim()
      .min(1, 'Please enter a configuration name')
      .max(
        CONFIGURATION_LIMITS.nameMaxChars,
        `The name may have ${CONFIGURATION_LIMITS.nameMaxChars} characters at most`,
      ),
    description: z
      .string()
      .trim()
      .max(CONFIGURATION_LIMITS.descriptionMaxChars, 'The description is too long')
      .nullable()
      .optional()
      .transform((v) => v ?? ''),
    baseAnalysisId: z
      .string()
      .max(64)
      .nullable()
      .optional()
      .transform((v) => v || null),
    cspRules: ruleMap('cspRules'),
    customRules: ruleMap('customRules').optional().default({}),
    ignoredSuggestions: ruleMap('ignoredSuggestions').optional().default({}),
    includeUriReports: z.boolean().optional().default(false),
    includeReportUri: z.boolean().optional().default(true),
    reportOnlyMode: z.boolean().optional().default(false),
    serverType: serverTypeSchema.optional().default('apache'),
    isActive: z.boolean().optional().default(true),
    metadata: metadataInput.optional().default(configurationMetadataSchema.parse({})),
  })
  .refine(
    (b) =>
      JSON.stringify([b.cspRules, b.customRules, b.ignoredSuggestions]).length <=
      CONFIGURATION_LIMITS.rulesMaxBytes,
    { message: 'The rules are too large to store (300 KB at most)', path: ['cspRules'] },
  )
  .refine((b) => !b.metadata.includeNonce || b.metadata.nonce, {
    message: 'includeNonce needs a nonce',
    path: ['metadata'],
  });
export type ConfigurationBody = z.infer<typeof configurationBodySchema>;

export const configurationCreateSchema = configurationBodySchema.and(
  z.object({
    domainId: z.string({ message: 'domainId is required' }).min(1, 'domainId is required').max(64),
  }),
);

export const configurationSchema = z.object({
  id: z.string(),
  domainId: z.string(),
  userId: z.string(),
  name: z.string(),
  description: z.string(),
  baseAnalysisId: z.string().nullable(),
  cspRules: z.record(z.string(), z.array(z.string())),
  customRules: z.record(z.string(), z.array(z.string())),
  ignoredSuggestions: z.record(z.string(), z.array(z.string())),
  includeUriReports: z.boolean(),
  includeReportUri: z.boolean(),
  reportOnlyMode: z.boolean(),
  serverType: serverTypeSchema,
  isActive: z.boolean(),
  metadata: configurationMetadataSchema,
  /** The audit of the policy this configuration sends (grade, issues, findings). */
  audit: policyAuditSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Configuration = z.infer<typeof configurationSchema>;

export const configurationListSchema = z.object({
  configurations: z.array(configurationSchema),
  /** Where this domain's policies send reports (report-uri and Reporting-Endpoints). */
  reportEndpoint: z.string(),
  /**
   * External scripts of the domain's inventory without integrity metadata, which an enforced
   * Integrity-Policy refuses (null: no run folded into an inventory yet). The panel's audit reads it.
   */
  scriptsWithoutIntegrity: z.number().int().nonnegative().nullable().optional(),
});
export type ConfigurationList = z.infer<typeof configurationListSchema>;

export const CONFIGURATION_EXPORT_FORMATS = ['apache', 'nginx', 'iis', 'header'] as const;
export const configurationExportQuerySchema = z.object({
  format: z.enum(CONFIGURATION_EXPORT_FORMATS, {
    message: "format must be 'apache', 'nginx', 'iis' or 'header'",
  }),
});
