// Domains: the websites a user registers (spec sections 3 and 5).
import * as z from 'zod';

export { INACTIVE_DOMAIN, READ_ONLY_MESSAGE } from './domain-messages';

export const httpUrl = (message: string) =>
  z
    .string()
    .trim()
    .max(2048, 'URL is too long')
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    }, message);

export const domainCreateSchema = z.object({
  name: z.string().trim().min(1, 'Domain name is required').max(255, 'Domain name is too long'),
  url: httpUrl('Please enter a valid URL'),
  isActive: z.boolean().optional().default(true),
});
export type DomainCreateInput = z.infer<typeof domainCreateSchema>;

/** Changing a domain: any of its fields (an inactive domain is not scanned and its reports are refused). */
export const domainUpdateSchema = z
  .object({
    name: domainCreateSchema.shape.name.optional(),
    url: httpUrl('Please enter a valid URL').optional(),
    isActive: z.boolean({ message: 'isActive must be true or false' }).optional(),
  })
  .refine((v) => v.name !== undefined || v.url !== undefined || v.isActive !== undefined, {
    message: 'Nothing to change',
  });
export type DomainUpdateInput = z.infer<typeof domainUpdateSchema>;

/** How a domain is seen: its owner changes it; the members of the owner's team see it read-only. */
export const DOMAIN_ACCESS = ['owner', 'team'] as const;
export type DomainAccess = (typeof DOMAIN_ACCESS)[number];

export const domainSchema = z.object({
  id: z.string(),
  userId: z.string(),
  uuid: z.string(),
  name: z.string(),
  url: z.string(),
  isActive: z.boolean(),
  lastScanned: z.string().nullable(),
  totalScans: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Set in the signed-in user's own answers (list and detail), not in the admin lists. */
  access: z.enum(DOMAIN_ACCESS).optional(),
});
export type Domain = z.infer<typeof domainSchema>;
