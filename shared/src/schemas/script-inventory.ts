// The script inventory over the API (/api/domains/:id/scripts): the list with its filters and pages, bulk
// authorization, URL-pattern rules, and the append-only history of each script. The entries themselves are
// shared/src/watch/inventory.ts; what is written about them over time is `scriptHistoryRowSchema`.
import * as z from 'zod';
import { authorizationRuleSchema, INVENTORY_STATES, inventoryEntrySchema } from '../watch/inventory';
import { SCRIPT_PARTIES, WATCH_LIMITS } from '../watch/snapshot';
import { URL_PATTERN_MAX_CHARS } from '../watch/url-pattern';

export const SCRIPT_INVENTORY_LIMITS = {
  pageSize: 50,
  maxPageSize: 200,
  /** Scripts one bulk authorization may name. */
  authorizeKeys: 500,
  justificationChars: 2_000,
  rulesPerDomain: 100,
  /** History rows one script's history answer holds (newest first). */
  historyRows: 200,
} as const;

const justification = z
  .string()
  .trim()
  .min(1, 'A justification is required')
  .max(SCRIPT_INVENTORY_LIMITS.justificationChars);

const scriptKey = z
  .string()
  .min(1)
  .max(WATCH_LIMITS.urlChars + 16);

export const scriptListQuerySchema = z.object({
  state: z.enum(INVENTORY_STATES).optional(),
  party: z.enum(SCRIPT_PARTIES).optional(),
  /** Only scripts whose content the last run saw for the first time (new scripts and changed content). */
  changed: z.enum(['true', 'false']).optional(),
  /** Where the previous page ended (the answer's nextCursor). */
  cursor: z
    .string()
    .regex(/^\d{1,6}$/, 'Invalid cursor')
    .optional(),
  limit: z.coerce.number().int().min(1).max(SCRIPT_INVENTORY_LIMITS.maxPageSize).optional(),
});
export type ScriptListQuery = z.infer<typeof scriptListQuerySchema>;

export const authorizeScriptsSchema = z.object({
  keys: z
    .array(scriptKey)
    .min(1, 'Choose at least one script')
    .max(SCRIPT_INVENTORY_LIMITS.authorizeKeys)
    .transform((k) => [...new Set(k)]),
  justification,
  /** Keep these scripts authorized whatever their content becomes (default: only this content). */
  anyContent: z.boolean().default(false),
});
export type AuthorizeScriptsInput = z.infer<typeof authorizeScriptsSchema>;

export const createScriptRuleSchema = z.object({
  pattern: z
    .string()
    .trim()
    .min(1, 'A URL pattern is required')
    .max(URL_PATTERN_MAX_CHARS)
    .refine((p) => /^https?:\/\//.test(p), 'The pattern must start with https:// or http://'),
  justification,
  anyContent: z.boolean().default(false),
});
export type CreateScriptRuleInput = z.infer<typeof createScriptRuleSchema>;

export const HISTORY_EVENT_TYPES = [
  'seen',
  'content-changed',
  'pending-again',
  'authorized',
  'removed',
  'returned',
  'field-reported',
  'rule-added',
  'rule-deleted',
] as const;
export type HistoryEventType = (typeof HISTORY_EVENT_TYPES)[number];

/** One row of the inventory's history: written once, never changed (deleted only with its domain). */
export const scriptHistoryRowSchema = z.object({
  id: z.string(),
  type: z.enum(HISTORY_EVENT_TYPES),
  at: z.string(),
  /** The script it is about (null for a rule's own rows). */
  scriptKey: z.string().nullable(),
  ruleId: z.string().nullable(),
  /** The analysis whose run it came from (null for what a person did). */
  analysisId: z.string().nullable(),
  /** Who did it (user id and name), for authorizations and rules. */
  by: z.string().nullable(),
  byName: z.string().nullable(),
  justification: z.string().nullable(),
  /** The content it is about (the new one for a change). */
  digest: z.string().nullable(),
  /** A change's previous content. */
  before: z.string().nullable(),
  state: z.enum(INVENTORY_STATES).nullable(),
  anyContent: z.boolean().nullable(),
  pattern: z.string().nullable(),
});
export type ScriptHistoryRow = z.infer<typeof scriptHistoryRowSchema>;

export const scriptViewSchema = inventoryEntrySchema.extend({
  /** The current content was first seen by the last run (a new script, or its content changed). */
  changedInLastRun: z.boolean(),
});
export type ScriptView = z.infer<typeof scriptViewSchema>;

export const scriptListSchema = z.object({
  scripts: z.array(scriptViewSchema),
  /** Scripts matching the filters (all pages). */
  total: z.number().int().nonnegative(),
  nextCursor: z.string().nullable(),
  /** Per state, over the whole inventory. */
  counts: z.record(z.enum(INVENTORY_STATES), z.number().int().nonnegative()),
  lastRunAt: z.string().nullable(),
  rules: z.array(authorizationRuleSchema),
});
export type ScriptList = z.infer<typeof scriptListSchema>;

export const scriptHistorySchema = z.object({ history: z.array(scriptHistoryRowSchema) });
