// The changes timeline's query (GET /api/domains/:id/changes): a page of compared runs, newest first; the
// cursor is the last analysis id of the page before.
import * as z from 'zod';

export const WATCH_CHANGES_PAGE = { size: 20, max: 50 } as const;

export const watchChangesQuerySchema = z.object({
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, `limit must be between 1 and ${WATCH_CHANGES_PAGE.max}`)
    .max(WATCH_CHANGES_PAGE.max, `limit must be between 1 and ${WATCH_CHANGES_PAGE.max}`)
    .default(WATCH_CHANGES_PAGE.size),
  /** An analysis id (time-sortable, 26 characters of Crockford base32). */
  cursor: z
    .string()
    .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'cursor is not valid')
    .optional(),
});
export type WatchChangesQuery = z.infer<typeof watchChangesQuerySchema>;
