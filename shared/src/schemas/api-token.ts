// API tokens (Settings › API tokens): what a token may do, how one is asked for and how it is shown. A token
// acts for its user, within its scopes, on the routes a pipeline needs — never on admin routes, token
// management or account changes (functions/src/api/middleware/api-token.ts holds that table).
import * as z from 'zod';

export const API_TOKEN_SCOPES = ['read', 'analyses:write', 'configurations:write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read domains, analyses, reports and configurations',
  'analyses:write': 'Start and delete analyses',
  'configurations:write':
    'Create, change and delete configurations; authorize scripts and manage their rules',
};

/** The visible start of every token: secret scanners (and people) recognise a leaked one by it. */
export const API_TOKEN_PREFIX = 'cspg_';

export const API_TOKEN_LIMITS = {
  perUser: 20,
  nameChars: 80,
  defaultExpiryDays: 90,
  maxExpiryDays: 366,
} as const;

export const createApiTokenSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(API_TOKEN_LIMITS.nameChars),
    scopes: z
      .array(z.enum(API_TOKEN_SCOPES))
      .min(1, 'Choose at least one scope')
      .transform((s) => [...new Set(s)]),
    /** Days until it expires; null: never. */
    expiresInDays: z
      .number()
      .int()
      .min(1)
      .max(API_TOKEN_LIMITS.maxExpiryDays)
      .nullable()
      .default(API_TOKEN_LIMITS.defaultExpiryDays),
  })
  .strict();
export type CreateApiToken = z.input<typeof createApiTokenSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)),
  /** The first characters of the token (prefix and 4 more), to tell tokens apart; never the secret. */
  hint: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;
