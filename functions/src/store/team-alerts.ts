// A team's alert settings in the table: one item, keyed by the team's owner (keys.ts says why), with the
// team's webhooks and their sealed signing secrets like a domain's. `savedAt` marks settings the owner
// saved: only those apply to the team's domains (shared/src/alerts/effective-settings.ts).
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_ALERT_SETTINGS } from '@csp/shared/schemas/alert-settings';
import {
  type TeamAlertSettings,
  type TeamAlertSettingsBody,
  teamAlertSettingsBodySchema,
} from '@csp/shared/schemas/team-alert-settings';
import * as z from 'zod';
import {
  appendWebhook,
  defaultAlertSettings,
  removeWebhookFrom,
  type SettingsRecord,
  type StoredWebhook,
  settingsFromItem,
  storedWebhookSchema,
} from './alerts';
import { batchGet } from './batch';
import { type Db, isConditionFailure } from './db';
import { itemReader } from './items';
import { alertSettingsKey, teamAlertSettingsKey } from './keys';

const teamSettingsRecordSchema = teamAlertSettingsBodySchema.extend({
  teamId: z.string(),
  ownerId: z.string(),
  webhooks: z.array(storedWebhookSchema),
  savedAt: z.string().optional(),
});
export type TeamSettingsRecord = z.infer<typeof teamSettingsRecordSchema>;
const teamSettingsFromItem = itemReader(teamSettingsRecordSchema);

interface TeamRef {
  id: string;
  ownerId: string;
}

/** What a team's settings are before the owner saves any: every kind, the owner e-mailed, no webhook. */
const defaultsFor = (team: TeamRef): TeamSettingsRecord => ({
  teamId: team.id,
  ownerId: team.ownerId,
  kinds: DEFAULT_ALERT_SETTINGS.kinds,
  pendingDays: DEFAULT_ALERT_SETTINGS.pendingDays,
  recipients: [team.ownerId],
  webhooks: [],
});

/** The team settings item of a team's owner as stored (saved or not), or null. */
export async function getTeamAlertSettingsOfOwner(
  db: Db,
  ownerId: string,
): Promise<TeamSettingsRecord | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: teamAlertSettingsKey(ownerId) }));
  return res.Item ? teamSettingsFromItem(res.Item) : null;
}

export async function getTeamAlertSettings(db: Db, team: TeamRef): Promise<TeamSettingsRecord> {
  const record = await getTeamAlertSettingsOfOwner(db, team.ownerId);
  // An item of an earlier team of the same owner (its deletion failed half-way) is not this team's.
  return record && record.teamId === team.id ? record : defaultsFor(team);
}

export function toTeamAlertSettings(record: TeamSettingsRecord): TeamAlertSettings {
  return {
    kinds: record.kinds,
    pendingDays: record.pendingDays,
    recipients: record.recipients,
    webhooks: record.webhooks.map(({ sealedSecret: _, ...w }) => w),
    saved: record.savedAt !== undefined,
  };
}

/** Saves what alerts and who is e-mailed; from now on the team's domains that follow it go by them. */
export async function putTeamAlertSettings(
  db: Db,
  team: TeamRef,
  body: TeamAlertSettingsBody,
): Promise<TeamSettingsRecord> {
  const res = await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: teamAlertSettingsKey(team.ownerId),
      UpdateExpression:
        'SET teamId = :t, ownerId = :o, kinds = :k, pendingDays = :p, recipients = :r, savedAt = :at, ' +
        'webhooks = if_not_exists(webhooks, :none)',
      ExpressionAttributeValues: {
        ':t': team.id,
        ':o': team.ownerId,
        ':k': body.kinds,
        ':p': body.pendingDays,
        ':r': body.recipients,
        ':at': new Date().toISOString(),
        ':none': [],
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return teamSettingsFromItem(res.Attributes ?? {});
}

/** Adds a webhook unless the team has the most it may have; null then. Adding one applies nothing yet. */
export async function addTeamWebhook(
  db: Db,
  team: TeamRef,
  webhook: StoredWebhook,
): Promise<TeamSettingsRecord | null> {
  const current = await getTeamAlertSettings(db, team);
  const saved = await appendWebhook(db, teamAlertSettingsKey(team.ownerId), webhook, {
    set: { teamId: team.id, ownerId: team.ownerId },
    ifMissing: {
      kinds: current.kinds,
      pendingDays: current.pendingDays,
      recipients: current.recipients,
    },
  });
  return saved ? teamSettingsFromItem(saved) : null;
}

export function removeTeamWebhook(db: Db, team: TeamRef, webhookId: string): Promise<boolean> {
  return removeWebhookFrom(
    db,
    teamAlertSettingsKey(team.ownerId),
    async () => (await getTeamAlertSettings(db, team)).webhooks,
    webhookId,
  );
}

/** A member who left or was removed is e-mailed the team's alerts no more. */
export async function dropTeamAlertRecipient(db: Db, team: TeamRef, userId: string): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await getTeamAlertSettings(db, team);
    if (!current.recipients.includes(userId)) return;
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: teamAlertSettingsKey(team.ownerId),
          UpdateExpression: 'SET recipients = :after',
          ConditionExpression: 'recipients = :before',
          ExpressionAttributeValues: {
            ':before': current.recipients,
            ':after': current.recipients.filter((id) => id !== userId),
          },
        }),
      );
      return;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

export interface DomainAlertSettingsPair {
  domain: SettingsRecord;
  /** The saved settings of the team whose domain this is (its owner's team), or null. */
  team: TeamSettingsRecord | null;
}

/**
 * A domain's alert settings and its team's, in one read: the team's item is found by the domain's owner,
 * so nothing else (the user, the team) is read. Unsaved team settings count as none.
 */
export async function getDomainAndTeamAlertSettings(
  db: Db,
  domain: { id: string; userId: string },
): Promise<DomainAlertSettingsPair> {
  const domainKey = alertSettingsKey(domain.id);
  const items = await batchGet(db, [domainKey, teamAlertSettingsKey(domain.userId)]);
  const domainItem = items.find((i) => i.pk === domainKey.pk && i.sk === domainKey.sk);
  const teamItem = items.find((i) => i !== domainItem);
  const team = teamItem ? teamSettingsFromItem(teamItem) : null;
  return {
    domain: domainItem ? settingsFromItem(domainItem) : defaultAlertSettings(domain.id),
    team: team?.savedAt ? team : null,
  };
}
