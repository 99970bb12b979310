// Saved CSP configurations (csp_configurations): one item each, listed per domain through gsi2. A
// configuration stores the audit of the policy it sends, computed by the caller when it is written.
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import {
  type Configuration,
  type ConfigurationBody,
  configurationSchema,
} from '@csp/shared/schemas/configuration';
import { batchDelete } from './batch';
import { type Db, isConditionFailure, nowIso } from './db';
import { newId } from './ids';
import { itemReader } from './items';
import { configurationIndexes, configurationKey, domainConfigurationsPartition } from './keys';
import { queryPartition } from './query';
import { updateFields } from './update-fields';

/** The one place a stored item becomes this entity. */
export const configurationFromItem = itemReader(configurationSchema);

export async function createConfiguration(
  db: Db,
  input: { userId: string; domainId: string; body: ConfigurationBody; audit: PolicyAudit },
): Promise<Configuration> {
  const id = newId();
  const now = nowIso();
  const configuration: Configuration = {
    id,
    domainId: input.domainId,
    userId: input.userId,
    ...input.body,
    audit: input.audit,
    createdAt: now,
    updatedAt: now,
  };
  await db.doc.send(
    new PutCommand({
      TableName: db.table,
      Item: { ...configurationKey(id), ...configurationIndexes(input.domainId, id), ...configuration },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return configuration;
}

export async function getConfiguration(db: Db, id: string): Promise<Configuration | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: configurationKey(id) }));
  return res.Item ? configurationFromItem(res.Item) : null;
}

const BODY_FIELDS = [
  'name',
  'description',
  'baseAnalysisId',
  'cspRules',
  'customRules',
  'ignoredSuggestions',
  'includeUriReports',
  'includeReportUri',
  'reportOnlyMode',
  'serverType',
  'isActive',
  'metadata',
] as const satisfies ReadonlyArray<keyof ConfigurationBody>;

/** Replaces every field of the body (PUT); null when the configuration no longer exists. */
export async function updateConfiguration(
  db: Db,
  id: string,
  body: ConfigurationBody,
  audit: PolicyAudit,
): Promise<Configuration | null> {
  const fields: Record<string, unknown> = { audit };
  for (const field of BODY_FIELDS) fields[field] = body[field];
  const item = await updateFields(db, configurationKey(id), fields);
  return item ? configurationFromItem(item) : null;
}

export async function deleteConfiguration(db: Db, id: string): Promise<void> {
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: configurationKey(id) }));
}

/** A domain's configurations, oldest first (ids sort by time). */
export async function listDomainConfigurations(db: Db, domainId: string): Promise<Configuration[]> {
  const items = await queryPartition(db, {
    index: 'gsi2',
    partition: domainConfigurationsPartition(domainId),
  });
  return items.map(configurationFromItem);
}

export async function countDomainConfigurations(db: Db, domainId: string): Promise<number> {
  const keys = await queryPartition(db, {
    index: 'gsi2',
    partition: domainConfigurationsPartition(domainId),
    projection: 'pk',
  });
  return keys.length;
}

/** Deleting a domain deletes its configurations. */
export async function deleteDomainConfigurations(db: Db, domainId: string): Promise<void> {
  const keys = await queryPartition(db, {
    index: 'gsi2',
    partition: domainConfigurationsPartition(domainId),
    projection: 'pk, sk',
  });
  await batchDelete(db, keys as { pk: string; sk: string }[]);
}

/** Spec: deleting an analysis sets baseAnalysisId to null in the configurations that use it. */
export async function detachBaseAnalysis(db: Db, domainId: string, analysisId: string): Promise<number> {
  let detached = 0;
  for (const c of await listDomainConfigurations(db, domainId)) {
    if (c.baseAnalysisId !== analysisId) continue;
    try {
      await db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: configurationKey(c.id),
          UpdateExpression: 'SET baseAnalysisId = :null, updatedAt = :now',
          // Only if it still points there: a concurrent PUT may have chosen another base.
          ConditionExpression: 'baseAnalysisId = :id',
          ExpressionAttributeValues: { ':null': null, ':id': analysisId, ':now': nowIso() },
        }),
      );
      detached += 1;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }
  return detached;
}
