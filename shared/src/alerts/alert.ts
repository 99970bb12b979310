// Alerts of a watched domain (one vocabulary for the settings, the grouping, e-mail and webhooks): what can
// alert, and an alert as it is delivered. Alerts of one cause are grouped (one delivery naming how many times
// and since when), never one per report or per page.
import * as z from 'zod';

export const ALERT_KINDS = [
  'script-added',
  'script-changed',
  'script-pending',
  'header-changed',
  'drift',
  'reports-stopped',
  'report-spike',
  'suspicious-inline',
  'field-digest',
  // Sent by "Send test" only: it proves a channel works and is never something a domain subscribes to.
  'test',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** The kinds a domain chooses to be alerted about. */
export const SUBSCRIBABLE_ALERT_KINDS = ALERT_KINDS.filter(
  (k): k is Exclude<AlertKind, 'test'> => k !== 'test',
);

/** What each kind is called on screens, in e-mails and in webhook messages. */
export const ALERT_KIND_TITLES: Record<AlertKind, string> = {
  'script-added': 'New script',
  'script-changed': 'Script content changed',
  'script-pending': 'Script pending review',
  'header-changed': 'Security header changed',
  drift: 'Served policy differs from the saved configuration',
  'reports-stopped': 'Reports stopped arriving',
  'report-spike': 'Report spike',
  'suspicious-inline': 'Suspicious inline code reported',
  'field-digest': 'Visitors ran script content no crawl saw',
  test: 'Test alert',
};

export const alertSchema = z.object({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  domainId: z.string(),
  domainName: z.string(),
  /** One cause: alerts with the same domain, kind and cause are grouped into this one. */
  cause: z.string().max(2_048),
  /** One line a person reads first. */
  summary: z.string().max(500),
  /** The screen that explains it (absolute URL, as delivered). */
  link: z.url(),
  count: z.number().int().positive(),
  firstSeen: z.string(),
  lastSeen: z.string(),
});
export type Alert = z.infer<typeof alertSchema>;

/**
 * An alert as raised and kept: the screen that explains it is a path of the product, made absolute when
 * it is delivered (the code that raises alerts, such as the report consumer, does not know the product's
 * public address; the sender does).
 */
export const raisedAlertSchema = alertSchema.omit({ link: true }).extend({
  path: z.string().startsWith('/').max(2_048),
});
export type RaisedAlert = z.infer<typeof raisedAlertSchema>;

/** The alert as delivered, with its link made absolute on `publicUrl`. */
export const deliveredAlert = ({ path, ...alert }: RaisedAlert, publicUrl: string): Alert => ({
  ...alert,
  link: new URL(path, publicUrl).href,
});

/** The grouping key of an alert: same key, same alert (counted, not sent again). */
export const alertGroupKey = (a: Pick<Alert, 'domainId' | 'kind' | 'cause'>) =>
  `${a.domainId}\u0000${a.kind}\u0000${a.cause}`;
