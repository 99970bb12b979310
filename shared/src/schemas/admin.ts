// The admin panel's API (spec sections 2 Admin, 6, 7): paginated lists with totals, the role change.
import * as z from 'zod';
import { analysisSchema } from './analysis';
import { publicUserSchema, ROLES } from './auth';
import { domainSchema } from './domain';

export const ADMIN_PAGE_SIZE = 50;

export const adminListQuerySchema = z.object({
  cursor: z.string().max(2000).optional(),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int()
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(ADMIN_PAGE_SIZE),
});

const page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), total: z.number().int(), nextCursor: z.string().nullable() });

export const adminUserListSchema = page(publicUserSchema);
export const adminDomainListSchema = page(domainSchema);
export const adminAnalysisListSchema = page(analysisSchema);
export type AdminUserList = z.infer<typeof adminUserListSchema>;
export type AdminDomainList = z.infer<typeof adminDomainListSchema>;
export type AdminAnalysisList = z.infer<typeof adminAnalysisListSchema>;

export const roleChangeSchema = z.object({
  role: z.enum(ROLES, { message: "role must be 'user' or 'admin'" }),
});
