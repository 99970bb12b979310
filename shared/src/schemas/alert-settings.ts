// A domain's alert settings (what alerts, and where: the owner's e-mail, signed webhooks) and the
// deliveries the screens list. The webhook's signing secret is shown once, when the webhook is added; the
// table keeps it sealed (functions/src/alerts/).
import * as z from 'zod';
import { ALERT_KINDS, SUBSCRIBABLE_ALERT_KINDS } from '../alerts/alert';

export const ALERT_LIMITS = {
  webhooksPerDomain: 5,
  webhookUrlChars: 2_048,
  /** "Script pending review for more than N days": N is 1–90. */
  pendingDaysMax: 90,
  /** Deliveries and alerts listed per page. */
  listPage: 50,
  /** A delivery's error as stored and shown (a receiver's answer is cut here). */
  errorChars: 300,
} as const;

export const DEFAULT_PENDING_DAYS = 7;

export const alertSettingsBodySchema = z
  .object({
    kinds: z
      .array(z.enum(SUBSCRIBABLE_ALERT_KINDS))
      .max(SUBSCRIBABLE_ALERT_KINDS.length)
      .transform((kinds) => [...new Set(kinds)]),
    email: z.boolean(),
    pendingDays: z.number().int().min(1).max(ALERT_LIMITS.pendingDaysMax),
  })
  .strict();
export type AlertSettingsBody = z.infer<typeof alertSettingsBodySchema>;

export const webhookCreateSchema = z
  .object({
    url: z
      .url({ protocol: /^https?$/, error: 'Please enter an http(s) URL' })
      .max(ALERT_LIMITS.webhookUrlChars, 'The URL is too long'),
  })
  .strict();

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  createdAt: z.string(),
  /** The secret's last four characters, to tell which one a receiver holds. */
  secretHint: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

export const alertSettingsSchema = alertSettingsBodySchema.extend({ webhooks: z.array(webhookSchema) });
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

export const DEFAULT_ALERT_SETTINGS: AlertSettingsBody = {
  kinds: [...SUBSCRIBABLE_ALERT_KINDS],
  email: true,
  pendingDays: DEFAULT_PENDING_DAYS,
};

export const DELIVERY_CHANNELS = ['email', 'webhook'] as const;
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

export const alertDeliverySchema = z.object({
  id: z.string(),
  alertId: z.string(),
  kind: z.enum(ALERT_KINDS),
  summary: z.string(),
  channel: z.enum(DELIVERY_CHANNELS),
  /** The webhook's id, or 'owner' for the owner's e-mail (a team member's user id for the team's e-mail). */
  target: z.string(),
  /** Sent by the team's alert settings (its webhook or member), not the domain's own. */
  viaTeam: z.boolean().optional(),
  status: z.enum(DELIVERY_STATES),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().max(ALERT_LIMITS.errorChars).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;
