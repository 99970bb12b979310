// A domain's alerts in the table: its settings (with each webhook's sealed signing secret), one item per
// alert group (same domain, kind and cause: counted, not sent again within NOTIFY_AGAIN_MS) and one item
// per delivery, found by the sender through the "due" index while it waits for its next try.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type RaisedAlert as Raised, raisedAlertSchema } from '@csp/shared/alerts/alert';
import {
  ALERT_LIMITS,
  type AlertDelivery,
  type AlertSettings,
  type AlertSettingsBody,
  alertDeliverySchema,
  alertSettingsBodySchema,
  DEFAULT_ALERT_SETTINGS,
  webhookSchema,
} from '@csp/shared/schemas/alert-settings';
import { byCodeUnits } from '@csp/shared/text/order';
import * as z from 'zod';
import { batchDelete } from './batch';
import { type Db, isConditionFailure } from './db';
import { idFloor, newId } from './ids';
import { itemReader } from './items';
import {
  ALERT_DELIVERY_SK_PREFIX,
  ALERT_GROUP_SK_PREFIX,
  alertDeliveryKey,
  alertGroupItemKey,
  alertSettingsKey,
  DUE_DELIVERIES_PARTITION,
  domainAlertsPartition,
  dueDeliveryIndexes,
  REPORTING_DOMAINS_PARTITION,
  reportingMarkerIndexes,
  reportingMarkerKey,
} from './keys';
import { queryItems, queryPartition, queryTable } from './query';

/** An alert group already sent is sent again (with its count) after this long, not before. */
export const NOTIFY_AGAIN_MS = 24 * 3_600_000;
/** How long a sender holds a delivery it took (another sender leaves it alone meanwhile). */
const CLAIM_MS = 2 * 60_000;

export const storedWebhookSchema = webhookSchema.extend({ sealedSecret: z.string() });
export type StoredWebhook = z.infer<typeof storedWebhookSchema>;
const settingsRecordSchema = alertSettingsBodySchema.extend({
  domainId: z.string(),
  webhooks: z.array(storedWebhookSchema),
  /** The domain's switch "Use the team's alert settings"; never set: on (effective-settings.ts). */
  useTeamSettings: z.boolean().optional(),
});
export type SettingsRecord = z.infer<typeof settingsRecordSchema>;
export const settingsFromItem = itemReader(settingsRecordSchema);

/** The settings of a domain that never saved any. */
export const defaultAlertSettings = (domainId: string): SettingsRecord => ({
  domainId,
  ...DEFAULT_ALERT_SETTINGS,
  webhooks: [],
});

const groupRecordSchema = raisedAlertSchema.extend({ lastNotifiedAt: z.string().optional() });
const groupFromItem = itemReader(groupRecordSchema);

const deliveryRecordSchema = alertDeliverySchema.extend({
  domainId: z.string(),
  /** The alert as it was when the delivery was made (what the receiver gets). */
  alert: raisedAlertSchema,
  /** Made by the team's settings: the owner whose team's webhooks and recipients it goes to. */
  teamOwnerId: z.string().optional(),
});
export type DeliveryRecord = z.infer<typeof deliveryRecordSchema>;
const deliveryFromItem = itemReader(deliveryRecordSchema);

export function toAlertSettings(record: Omit<SettingsRecord, 'domainId'>): AlertSettings {
  return {
    kinds: record.kinds,
    email: record.email,
    pendingDays: record.pendingDays,
    webhooks: record.webhooks.map(({ sealedSecret: _, ...w }) => w),
  };
}

/** The domain's settings, or the defaults (every kind, e-mail on, no webhook) when never saved. */
export async function getAlertSettings(db: Db, domainId: string): Promise<SettingsRecord> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: alertSettingsKey(domainId) }));
  return res.Item ? settingsFromItem(res.Item) : defaultAlertSettings(domainId);
}

/** Turns the domain's "Use the team's alert settings" on or off; the rest stays as it is. */
export async function setUseTeamSettings(db: Db, domainId: string, on: boolean): Promise<SettingsRecord> {
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: alertSettingsKey(domainId),
      UpdateExpression:
        'SET domainId = :d, useTeamSettings = :on, kinds = if_not_exists(kinds, :k), email = if_not_exists(email, :e), ' +
        'pendingDays = if_not_exists(pendingDays, :p), webhooks = if_not_exists(webhooks, :none)',
      ExpressionAttributeValues: {
        ':d': domainId,
        ':on': on,
        ':k': DEFAULT_ALERT_SETTINGS.kinds,
        ':e': DEFAULT_ALERT_SETTINGS.email,
        ':p': DEFAULT_ALERT_SETTINGS.pendingDays,
        ':none': [],
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return settingsFromItem(res.Attributes ?? {});
}

/** Saves what alerts and whether by e-mail; the webhooks stay as they are. */
export async function putAlertSettings(
  db: Db,
  domainId: string,
  body: AlertSettingsBody,
): Promise<SettingsRecord> {
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: alertSettingsKey(domainId),
      UpdateExpression:
        'SET domainId = :d, kinds = :k, email = :e, pendingDays = :p, webhooks = if_not_exists(webhooks, :none)',
      ExpressionAttributeValues: {
        ':d': domainId,
        ':k': body.kinds,
        ':e': body.email,
        ':p': body.pendingDays,
        ':none': [],
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return settingsFromItem(res.Attributes ?? {});
}

/** Adds a webhook unless the domain has the most it may have; null then. */
export async function addWebhook(
  db: Db,
  domainId: string,
  webhook: StoredWebhook,
): Promise<SettingsRecord | null> {
  const current = await getAlertSettings(db, domainId);
  const saved = await appendWebhook(db, alertSettingsKey(domainId), webhook, {
    set: { domainId },
    ifMissing: { kinds: current.kinds, email: current.email, pendingDays: current.pendingDays },
  });
  return saved ? settingsFromItem(saved) : null;
}

/**
 * Appends a webhook to the settings item at `key` unless it holds the most it may; null then (else the
 * item as saved). `set`: attributes written; `ifMissing`: written only where the item has none yet.
 */
export async function appendWebhook(
  db: Db,
  key: { pk: string; sk: string },
  webhook: StoredWebhook,
  attributes: { set: Record<string, unknown>; ifMissing: Record<string, unknown> },
): Promise<Record<string, unknown> | null> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {
    ':none': [],
    ':w': [webhook],
    ':max': ALERT_LIMITS.webhooksPerDomain,
  };
  const sets: string[] = [];
  for (const [kind, fields] of Object.entries(attributes)) {
    for (const [name, value] of Object.entries(fields)) {
      names[`#${name}`] = name;
      values[`:${name}`] = value;
      sets.push(kind === 'set' ? `#${name} = :${name}` : `#${name} = if_not_exists(#${name}, :${name})`);
    }
  }
  sets.push('webhooks = list_append(if_not_exists(webhooks, :none), :w)');
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')}`,
        // Counted in the condition, so two adds at once cannot pass the limit together.
        ConditionExpression: 'attribute_not_exists(webhooks) OR size(webhooks) < :max',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

/** Removes a webhook; false when the domain has none of that id. */
export function removeWebhook(db: Db, domainId: string, webhookId: string): Promise<boolean> {
  return removeWebhookFrom(
    db,
    alertSettingsKey(domainId),
    async () => (await getAlertSettings(db, domainId)).webhooks,
    webhookId,
  );
}

/** Removes a webhook from the settings item at `key` (whose webhooks `read` gives); false when absent. */
export async function removeWebhookFrom(
  db: Db,
  key: { pk: string; sk: string },
  read: () => Promise<readonly { id: string }[]>,
  webhookId: string,
): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const index = (await read()).findIndex((w) => w.id === webhookId);
    if (index < 0) return false;
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: key,
          UpdateExpression: `REMOVE webhooks[${index}]`,
          // The list may have changed since it was read: remove only the webhook we found there.
          ConditionExpression: `webhooks[${index}].id = :id`,
          ExpressionAttributeValues: { ':id': webhookId },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return false;
}

export interface RaiseResult {
  alert: Raised;
  /** True when this raise should be delivered: a new group, or one last sent NOTIFY_AGAIN_MS ago or more. */
  notify: boolean;
}

/** Counts one occurrence of an alert in its group (made when new) and says whether to deliver it. */
export async function raiseAlert(
  db: Db,
  input: Pick<Raised, 'domainId' | 'domainName' | 'kind' | 'cause' | 'summary' | 'path'>,
  now = Date.now(),
): Promise<RaiseResult> {
  const at = new Date(now).toISOString();
  const key = alertGroupItemKey(input.domainId, input.kind, input.cause);
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: key,
      UpdateExpression:
        'SET id = if_not_exists(id, :id), domainId = :d, domainName = :n, kind = :k, cause = :c, summary = :s, ' +
        '#path = :l, lastSeen = :at, firstSeen = if_not_exists(firstSeen, :at) ADD #count :one',
      ExpressionAttributeNames: { '#count': 'count', '#path': 'path' },
      ExpressionAttributeValues: {
        ':id': newId(now),
        ':d': input.domainId,
        ':n': input.domainName,
        ':k': input.kind,
        ':c': input.cause,
        ':s': input.summary,
        ':l': input.path,
        ':at': at,
        ':one': 1,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const { lastNotifiedAt: _, ...group } = groupFromItem(res.Attributes ?? {});
  let notify = false;
  try {
    // Only one of the raisers of a group at one time delivers it.
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key,
        UpdateExpression: 'SET lastNotifiedAt = :at',
        ConditionExpression: 'attribute_not_exists(lastNotifiedAt) OR lastNotifiedAt <= :before',
        ExpressionAttributeValues: { ':at': at, ':before': new Date(now - NOTIFY_AGAIN_MS).toISOString() },
      }),
    );
    notify = true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return { alert: group, notify };
}

/** The domain's alert groups, most recently seen first. */
export async function listAlerts(
  db: Db,
  domainId: string,
  limit: number = ALERT_LIMITS.listPage,
): Promise<Raised[]> {
  const items = await querySortKeyPrefix(db, domainId, ALERT_GROUP_SK_PREFIX);
  return items
    .map((item) => {
      const { lastNotifiedAt: _, ...alert } = groupFromItem(item);
      return alert;
    })
    .sort((a, b) => byCodeUnits(b.lastSeen, a.lastSeen))
    .slice(0, limit);
}

/** Records a delivery to make now (pending, due at once). */
export async function createDelivery(
  db: Db,
  d: { alert: Raised; channel: AlertDelivery['channel']; target: string; teamOwnerId?: string | undefined },
  now = Date.now(),
): Promise<DeliveryRecord> {
  const at = new Date(now).toISOString();
  const record: DeliveryRecord = {
    id: newId(now),
    domainId: d.alert.domainId,
    alertId: d.alert.id,
    kind: d.alert.kind,
    summary: d.alert.summary.slice(0, 500),
    channel: d.channel,
    target: d.target,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: at,
    lastStatus: null,
    lastError: null,
    createdAt: at,
    updatedAt: at,
    alert: d.alert,
    ...(d.teamOwnerId ? { teamOwnerId: d.teamOwnerId, viaTeam: true } : {}),
  };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: {
        ...alertDeliveryKey(record.domainId, record.id),
        ...dueDeliveryIndexes(at, record.domainId, record.id),
        ...record,
      },
    }),
  );
  return record;
}

/** The domain's deliveries, newest first. */
export async function listDeliveries(
  db: Db,
  domainId: string,
  limit: number = ALERT_LIMITS.listPage,
): Promise<AlertDelivery[]> {
  const items = await querySortKeyPrefix(db, domainId, ALERT_DELIVERY_SK_PREFIX, {
    newestFirst: true,
    limit,
  });
  return items.map((item) => {
    const { alert: _, domainId: __, teamOwnerId: ___, ...delivery } = deliveryFromItem(item);
    return delivery;
  });
}

/** Deliveries due at `now` (oldest first), across all domains. */
export async function dueDeliveries(db: Db, now: number, limit = 25): Promise<DeliveryRecord[]> {
  const items = await queryItems(db, {
    index: 'gsi3',
    // Sort keys start with the ISO time: everything due up to now sorts before now's time + '~'.
    condition: 'gsi3pk = :p AND gsi3sk <= :now',
    values: { ':p': DUE_DELIVERIES_PARTITION, ':now': `${new Date(now).toISOString()}~` },
    limit,
  });
  return items.map(deliveryFromItem);
}

/**
 * Takes a due delivery for one sender: its next try moves CLAIM_MS on, on condition that it is still the
 * one this sender read. False when another sender took it first.
 */
export async function claimDelivery(db: Db, d: DeliveryRecord, now = Date.now()): Promise<boolean> {
  if (!d.nextAttemptAt) return false;
  const later = new Date(now + CLAIM_MS).toISOString();
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: alertDeliveryKey(d.domainId, d.id),
        UpdateExpression: 'SET nextAttemptAt = :later, gsi3sk = :sk',
        ConditionExpression: 'nextAttemptAt = :was AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':later': later,
          ':sk': dueDeliveryIndexes(later, d.domainId, d.id).gsi3sk,
          ':was': d.nextAttemptAt,
          ':pending': 'pending',
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

export type DeliveryOutcome =
  | { delivered: true; status: number | null }
  | { delivered: false; status: number | null; error: string; retryAt: number | null };

/** Records a try: delivered, failed for good, or failed with its next try (back in the due index). */
export async function recordDeliveryAttempt(
  db: Db,
  d: DeliveryRecord,
  outcome: DeliveryOutcome,
  now = Date.now(),
): Promise<void> {
  const at = new Date(now).toISOString();
  const retryAt =
    outcome.delivered || outcome.retryAt === null ? null : new Date(outcome.retryAt).toISOString();
  const status: AlertDelivery['status'] = outcome.delivered ? 'delivered' : retryAt ? 'pending' : 'failed';
  const values: Record<string, unknown> = {
    ':status': status,
    ':one': 1,
    ':code': outcome.status,
    ':error': outcome.delivered ? null : outcome.error.slice(0, ALERT_LIMITS.errorChars),
    ':next': retryAt,
    ':at': at,
  };
  let update =
    'SET #status = :status, lastStatus = :code, lastError = :error, nextAttemptAt = :next, updatedAt = :at ADD attempts :one';
  if (retryAt) {
    update = update.replace('updatedAt = :at', 'updatedAt = :at, gsi3sk = :sk');
    values[':sk'] = dueDeliveryIndexes(retryAt, d.domainId, d.id).gsi3sk;
  } else update += ' REMOVE gsi3pk, gsi3sk';
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: alertDeliveryKey(d.domainId, d.id),
      UpdateExpression: update,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
    }),
  );
}

/** Everything alert-related of a domain (with the domain). */
export async function deleteDomainAlerts(db: Db, domainId: string): Promise<void> {
  await batchDelete(db, await queryTable(db, domainAlertsPartition(domainId)));
}

/** Items of the domain's alert partition whose sort key starts with `prefix`. */
function querySortKeyPrefix(
  db: Db,
  domainId: string,
  prefix: string,
  opts: { newestFirst?: boolean; limit?: number } = {},
): Promise<Record<string, unknown>[]> {
  return queryItems(db, {
    condition: 'pk = :p AND begins_with(sk, :s)',
    values: { ':p': domainAlertsPartition(domainId), ':s': prefix },
    ...opts,
  });
}

const markerSchema = z.object({
  domainId: z.string(),
  lastReportHour: z.string(),
  checkedHour: z.string().optional(),
});
export type ReportingMarker = z.infer<typeof markerSchema>;
const markerFromItem = itemReader(markerSchema);

/**
 * Notes that a domain's reports arrived in `hour` (the report consumer): at most one write per domain and
 * hour, whatever the number of batches.
 */
export async function noteReportsArrived(db: Db, domainId: string, hour: string): Promise<void> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: reportingMarkerKey(domainId),
        UpdateExpression: 'SET domainId = :d, lastReportHour = :h, gsi3pk = :p, gsi3sk = :s',
        ConditionExpression: 'attribute_not_exists(lastReportHour) OR lastReportHour < :h',
        ExpressionAttributeValues: {
          ':d': domainId,
          ':h': hour,
          ':p': reportingMarkerIndexes(domainId).gsi3pk,
          ':s': reportingMarkerIndexes(domainId).gsi3sk,
        },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Every domain whose reports are watched. */
export async function reportingMarkers(db: Db): Promise<ReportingMarker[]> {
  const items = await queryPartition(db, { index: 'gsi3', partition: REPORTING_DOMAINS_PARTITION });
  return items.map(markerFromItem);
}

/** Takes a domain's check of `hour` for one checker; false when it was checked in that hour already. */
export async function claimReportCheck(db: Db, domainId: string, hour: string): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: reportingMarkerKey(domainId),
        UpdateExpression: 'SET checkedHour = :h',
        ConditionExpression:
          'attribute_exists(pk) AND (attribute_not_exists(checkedHour) OR checkedHour < :h)',
        ExpressionAttributeValues: { ':h': hour },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Stops watching a domain's reports (none for longer than the check looks back), unless one came meanwhile. */
export async function dropReportingMarker(db: Db, domainId: string, lastReportHour: string): Promise<void> {
  try {
    await db.doc.send(
      new DeleteCommand({
        TableName: db.table,
        Key: reportingMarkerKey(domainId),
        ConditionExpression: 'lastReportHour = :h',
        ExpressionAttributeValues: { ':h': lastReportHour },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * The domain's deliveries created in a period (ISO instants, inclusive), oldest first, at most `limit` (and
 * whether there were more). A key range: delivery ids begin with their creation time, so only the period's
 * items are read.
 */
export async function listDeliveriesBetween(
  db: Db,
  domainId: string,
  period: { from: string; to: string },
  limit: number,
): Promise<{ deliveries: AlertDelivery[]; more: boolean }> {
  const items = await queryItems(db, {
    condition: 'pk = :p AND sk BETWEEN :a AND :b',
    values: {
      ':p': domainAlertsPartition(domainId),
      ':a': alertDeliveryKey(domainId, idFloor(Date.parse(period.from))).sk,
      ':b': alertDeliveryKey(domainId, idFloor(Date.parse(period.to) + 1)).sk,
    },
    // One more than asked: whether there were more.
    limit: limit + 1,
  });
  const deliveries = items.slice(0, limit).map((item) => {
    const { alert: _, domainId: __, teamOwnerId: ___, ...delivery } = deliveryFromItem(item);
    return delivery;
  });
  return { deliveries, more: items.length > limit };
}
