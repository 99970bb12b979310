// A team's alert settings: what alerts and where, once for every domain of the team (its owner's domains)
// that uses them. The same kinds, pending-review days and webhooks (shape and limits) as a domain's; the
// e-mail goes to the members the owner picks instead of to the domain's owner alone. And a domain's choice
// between the team's settings and its own (shared/src/alerts/effective-settings.ts applies it).
import * as z from 'zod';
import { alertSettingsBodySchema, webhookSchema } from './alert-settings';
import { TEAM_LIMITS } from './team';

export const teamAlertSettingsBodySchema = alertSettingsBodySchema
  .omit({ email: true })
  .extend({
    /** The members (user ids) the team's alerts are e-mailed to; none: no e-mail. */
    recipients: z
      .array(z.string().min(1).max(64))
      .max(TEAM_LIMITS.membersMax, `At most ${TEAM_LIMITS.membersMax} recipients`)
      .transform((ids) => [...new Set(ids)]),
  })
  .strict();
export type TeamAlertSettingsBody = z.infer<typeof teamAlertSettingsBodySchema>;

export const teamAlertSettingsSchema = teamAlertSettingsBodySchema.extend({
  webhooks: z.array(webhookSchema),
  /**
   * False until the owner first saves them: until then the team's domains keep their own settings (a team
   * made today does not silence the webhooks its owner's domains already have).
   */
  saved: z.boolean(),
});
export type TeamAlertSettings = z.infer<typeof teamAlertSettingsSchema>;

/** A domain's switch "Use the team's alert settings" (on unless turned off). */
export const alertSettingsSourceBodySchema = z
  .object({ useTeamSettings: z.boolean({ message: 'useTeamSettings must be true or false' }) })
  .strict();
export type AlertSettingsSourceBody = z.infer<typeof alertSettingsSourceBodySchema>;

export const ALERT_SETTINGS_SOURCES = ['domain', 'team'] as const;
export type AlertSettingsSource = (typeof ALERT_SETTINGS_SOURCES)[number];

/** What a domain's Monitoring screen shows beside its own settings: the switch and whose settings apply. */
export const alertSettingsChoiceSchema = z.object({
  useTeamSettings: z.boolean(),
  /** Whose settings the domain's alerts go by now. */
  applies: z.enum(ALERT_SETTINGS_SOURCES),
  /** The team whose domain this is (its owner's), or null. `saved`: whether it has set alert settings. */
  team: z.object({ id: z.string(), name: z.string(), saved: z.boolean() }).nullable(),
});
export type AlertSettingsChoice = z.infer<typeof alertSettingsChoiceSchema>;
