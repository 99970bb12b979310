// Alerts from raise to receiver. raiseAndQueue (table writes only: the report consumer and the crawl
// writer raise alerts too) counts an alert in its group and, when the group is to be sent (new, or last
// sent a day ago), records one delivery per channel the settings that apply name: the domain's own, or its
// team's (alertRoutingOf reads both once per domain and batch; effective-settings.ts chooses). The
// sender (deliverDue: the dispatcher's tick, every few minutes in AWS, every minute under `npm start`) takes
// what is due, tries it once, and records the outcome: delivered, or the next try per the retry schedule
// (WEBHOOK_RETRY_DELAYS_MS), or failed for good. "Send test" sends at once through the same path.
import { ALERT_KIND_TITLES, type Alert, deliveredAlert } from '@csp/shared/alerts/alert';
import {
  alertsFor,
  DOMAIN_OWNER_RECIPIENT,
  type EffectiveAlertSettings,
  effectiveAlertSettings,
} from '@csp/shared/alerts/effective-settings';
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
  type StoredWebhook,
} from '../store/alerts';
import { getContactEmail } from '../store/contacts';
import type { Db } from '../store/db';
import { getDomain } from '../store/domains';
import { getDomainAndTeamAlertSettings, getTeamAlertSettingsOfOwner } from '../store/team-alerts';
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

/** The settings a domain's alerts go by, and the owner whose team's they are (null: the domain's own). */
export type AlertRouting = EffectiveAlertSettings<StoredWebhook> & { teamOwnerId: string | null };

/** What a domain's alerts go by now: one read (its settings and its team's), once per domain and batch. */
export async function alertRoutingOf(db: Db, domain: { id: string; userId: string }): Promise<AlertRouting> {
  const pair = await getDomainAndTeamAlertSettings(db, domain);
  const effective = effectiveAlertSettings(pair.domain, pair.team);
  return { ...effective, teamOwnerId: effective.source === 'team' ? domain.userId : null };
}

/**
 * Counts an alert; when it is to be sent and its kind is on, queues its deliveries. `routing`: the domain's
 * (alertRoutingOf), read once by a caller that raises several; without it, read here.
 */
export async function raiseAndQueue(
  db: Db,
  input: Parameters<typeof raiseAlert>[1],
  now = Date.now(),
  routing?: AlertRouting,
): Promise<DeliveryRecord[]> {
  const settings = routing ?? (await routingOfDomainId(db, input.domainId));
  if (!alertsFor(settings, input.kind)) return [];
  const { alert, notify } = await raiseAlert(db, input, now);
  if (!notify) return [];
  const channels = [
    ...settings.emailTo.map((target) => ({ channel: 'email' as const, target })),
    ...settings.webhooks.map((w) => ({ channel: 'webhook' as const, target: w.id })),
  ];
  const teamOwnerId = settings.teamOwnerId ?? undefined;
  return Promise.all(channels.map((c) => createDelivery(db, { alert, ...c, teamOwnerId }, now)));
}

async function routingOfDomainId(db: Db, domainId: string): Promise<AlertRouting> {
  const domain = await getDomain(db, domainId);
  if (domain) return alertRoutingOf(db, domain);
  return { ...effectiveAlertSettings(await getAlertSettings(db, domainId), null), teamOwnerId: null };
}

/** Where one delivery goes, resolved: an address, or a webhook with its sealed secret. */
export type AlertTarget =
  | { channel: 'email'; address: string; viaTeam: boolean }
  | { channel: 'webhook'; webhook: StoredWebhook };

const failure = (error: string, status: number | null, retryAt: number | null): DeliveryOutcome => ({
  delivered: false,
  status,
  error,
  retryAt,
});

/** Sends an alert to one resolved target once. Failures that may pass are retried at `retryAt`. */
export async function sendAlertTo(
  deps: AlertDeps,
  alert: Alert,
  target: AlertTarget,
  retryAt: number | null,
): Promise<DeliveryOutcome> {
  try {
    if (target.channel === 'email') {
      const sent = await sendMail(deps.config, alertMail(target.address, alert, target.viaTeam));
      return sent ? { delivered: true, status: null } : failure('No mail server is configured', null, null);
    }
    const secret = open(deps.secrets.totpEncryptionKey, target.webhook.sealedSecret);
    const guard = createTargetGuard({ allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS });
    // Signed at the real time, whatever clock the tick runs on: receivers check it against theirs.
    const answer = await postWebhook(
      target.webhook.url,
      JSON.stringify(webhookPayload(alert)),
      secret,
      guard,
    );
    if (answer.status >= 200 && answer.status < 300) return { delivered: true, status: answer.status };
    return failure(`HTTP ${answer.status}${answer.text ? `: ${answer.text}` : ''}`, answer.status, retryAt);
  } catch (error) {
    // A refused address will be refused again: no retry.
    if (error instanceof BlockedTargetError)
      return failure(`Address not allowed: ${error.host} (${error.reason})`, null, null);
    return failure(error instanceof Error ? error.message : String(error), null, retryAt);
  }
}

/** Where a queued delivery goes now, or why it cannot go (for good). */
async function resolveTarget(deps: AlertDeps, d: DeliveryRecord): Promise<AlertTarget | string> {
  const team = d.teamOwnerId ? await getTeamAlertSettingsOfOwner(deps.db, d.teamOwnerId) : null;
  if (d.teamOwnerId && !team) return "The team's alert settings were removed";
  if (d.channel === 'email') {
    let userId: string;
    if (d.target === DOMAIN_OWNER_RECIPIENT) {
      const domain = await getDomain(deps.db, d.domainId);
      if (!domain) return 'The domain no longer exists';
      userId = domain.userId;
    } else {
      // A member who left the team (or was taken off its recipients) since is not mailed.
      if (!team?.recipients.includes(d.target)) return "No longer a recipient of the team's alerts";
      userId = d.target;
    }
    const address = await getContactEmail(deps.db, userId);
    if (!address) return 'The recipient has no e-mail address';
    return { channel: 'email', address, viaTeam: team !== null };
  }
  const webhooks = team ? team.webhooks : (await getAlertSettings(deps.db, d.domainId)).webhooks;
  const webhook = webhooks.find((w) => w.id === d.target);
  return webhook ? { channel: 'webhook', webhook } : 'The webhook was removed';
}

/** Tries one delivery once. */
export async function attemptDelivery(
  deps: AlertDeps,
  d: DeliveryRecord,
  now = Date.now(),
): Promise<DeliveryOutcome> {
  const retryAt = nextWebhookAttempt(d.attempts + 1, now);
  let target: AlertTarget | string;
  try {
    target = await resolveTarget(deps, d);
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error), null, retryAt);
  }
  if (typeof target === 'string') return failure(target, null, null);
  return sendAlertTo(deps, deliveredAlert(d.alert, deps.publicUrl), target, retryAt);
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
