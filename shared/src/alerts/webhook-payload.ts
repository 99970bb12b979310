// The body of a webhook delivery: Slack's incoming webhooks take it as it is (they read `text`, mrkdwn with
// <url|label> links, and ignore the rest); any other receiver reads the alert itself under `alert`.
// The retry schedule of a delivery that failed (no answer, or not 2xx) lives here too: pure, so the queue
// that sends and the screen that lists deliveries agree on when the next try is.
import { ALERT_KIND_TITLES, type Alert } from './alert';

export interface WebhookPayload {
  text: string;
  alert: Alert;
}

/** Slack mrkdwn treats &, < and > as control characters: a site's name or URL must not become a link. */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function webhookPayload(alert: Alert): WebhookPayload {
  const times = alert.count > 1 ? ` (${alert.count} times since ${alert.firstSeen})` : '';
  const title = ALERT_KIND_TITLES[alert.kind];
  const text = `*${title}* on ${escapeMrkdwn(alert.domainName)}: ${escapeMrkdwn(alert.summary)}${times} <${alert.link}|Open in CSP Generator>`;
  return { text, alert };
}

/** Waits before the 2nd, 3rd… try of a delivery; after the last, the delivery is failed. */
export const WEBHOOK_RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000] as const;

/** When to try again after `attempts` failed tries (null: give up). */
export function nextWebhookAttempt(attempts: number, failedAt: number): number | null {
  const delay = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : failedAt + delay;
}
