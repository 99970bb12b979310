// Alerts from raise to receiver. raiseAndQueue (table writes only: the report consumer and the crawl
// writer raise alerts too) counts an alert in its group and, when the group is to be sent (new, or last
// sent a day ago), records one delivery per channel the domain's settings name. The
// sender (deliverDue: the dispatcher's tick, every few minutes in AWS, every minute under `npm start`) takes
// what is due, tries it once, and records the outcome: delivered, or the next try per the retry schedule
// (WEBHOOK_RETRY_DELAYS_MS), or failed for good. "Send test" sends at once through the same path.
import { ALERT_KIND_TITLES, deliveredAlert } from '@csp/shared/alerts/alert';
import { nextWebhookAttempt, webhookPayload } from '@csp/shared/alerts/webhook-payload';
import { open } from '../auth/secret-box';
import type { Config } from '../config';
import { BlockedTargetError, createTargetGuard } from '../crawler/guard';
import type { Logger } from '../logger';
import { sendMail } from '../mail/mailer';
import type { Secrets } from '../secrets';
import {
  claimDelivery,
  createDelivery,
  type DeliveryOutcome,
  type DeliveryRecord,
  dueDeliveries,
  getAlertSettings,
  raiseAlert,
  recordDeliveryAttempt,
} from '../store/alerts';
import { getContactEmail } from '../store/contacts';
import type { Db } from '../store/db';
import { getDomain } from '../store/domains';
import { alertMail } from './alert-mail';
import { postWebhook } from './webhook-post';

export interface AlertDeps {
  db: Db;
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'ALLOW_PRIVATE_TARGETS'>;
  secrets: Pick<Secrets, 'totpEncryptionKey'>;
  log: Logger;
  /** The product's public address: alert links are made absolute on it. */
  publicUrl: string;
}

/** Counts an alert; when it is to be sent and its kind is on for the domain, queues its deliveries. */
export async function raiseAndQueue(
  db: Db,
  input: Parameters<typeof raiseAlert>[1],
  now = Date.now(),
): Promise<DeliveryRecord[]> {
  const settings = await getAlertSettings(db, input.domainId);
  if (input.kind !== 'test' && !settings.kinds.includes(input.kind)) return [];
  const { alert, notify } = await raiseAlert(db, input, now);
  if (!notify) return [];
  const channels = [
    ...(settings.email ? [{ channel: 'email' as const, target: 'owner' }] : []),
    ...settings.webhooks.map((w) => ({ channel: 'webhook' as const, target: w.id })),
  ];
  return Promise.all(channels.map((c) => createDelivery(db, { alert, ...c }, now)));
}

/** Tries one delivery once. */
export async function attemptDelivery(
  deps: AlertDeps,
  d: DeliveryRecord,
  now = Date.now(),
): Promise<DeliveryOutcome> {
  const failed = (error: string, status: number | null = null, retry = true): DeliveryOutcome => ({
    delivered: false,
    status,
    error,
    retryAt: retry ? nextWebhookAttempt(d.attempts + 1, now) : null,
  });
  const alert = deliveredAlert(d.alert, deps.publicUrl);
  try {
    if (d.channel === 'email') {
      const domain = await getDomain(deps.db, d.domainId);
      if (!domain) return failed('The domain no longer exists', null, false);
      const email = await getContactEmail(deps.db, domain.userId);
      if (!email) return failed("The domain's owner has no e-mail address", null, false);
      const sent = await sendMail(deps.config, alertMail(email, alert));
      return sent ? { delivered: true, status: null } : failed('No mail server is configured', null, false);
    }
    const settings = await getAlertSettings(deps.db, d.domainId);
    const webhook = settings.webhooks.find((w) => w.id === d.target);
    if (!webhook) return failed('The webhook was removed', null, false);
    const secret = open(deps.secrets.totpEncryptionKey, webhook.sealedSecret);
    const guard = createTargetGuard({ allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS });
    // Signed at the real time, whatever clock the tick runs on: receivers check it against theirs.
    const answer = await postWebhook(webhook.url, JSON.stringify(webhookPayload(alert)), secret, guard);
    if (answer.status >= 200 && answer.status < 300) return { delivered: true, status: answer.status };
    return failed(`HTTP ${answer.status}${answer.text ? `: ${answer.text}` : ''}`, answer.status);
  } catch (error) {
    // A refused address will be refused again: no retry.
    if (error instanceof BlockedTargetError)
      return failed(`Address not allowed: ${error.host} (${error.reason})`, null, false);
    return failed(error instanceof Error ? error.message : String(error));
  }
}

/** Sends what is due now, each delivery by one sender only. The number tried. */
export async function deliverDue(deps: AlertDeps, now = Date.now()): Promise<number> {
  let tried = 0;
  for (const d of await dueDeliveries(deps.db, now)) {
    if (!(await claimDelivery(deps.db, d, now))) continue;
    const outcome = await attemptDelivery(deps, d, now);
    await recordDeliveryAttempt(deps.db, d, outcome, now);
    if (!outcome.delivered) {
      deps.log.warn('alert delivery failed', {
        deliveryId: d.id,
        channel: d.channel,
        attempts: d.attempts + 1,
      });
    }
    tried += 1;
  }
  return tried;
}

/** The test alert "Send test" raises: a new group each time, so it is always sent. */
export function testAlertInput(domain: { id: string; name: string }, now = Date.now()) {
  return {
    domainId: domain.id,
    domainName: domain.name,
    kind: 'test' as const,
    cause: `test ${now}`,
    summary: `${ALERT_KIND_TITLES.test}: deliveries for this domain work.`,
    path: `/domains/${domain.id}`,
  } satisfies Parameters<typeof raiseAlert>[1];
}
