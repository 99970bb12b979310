// Domains: a user's websites. Each has a public uuid (used in report-uri), looked up through a ref item.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  type Domain,
  type DomainCreateInput,
  type DomainUpdateInput,
  domainSchema,
} from '@csp/shared/schemas/domain';
import { deleteDomainAlerts } from './alerts';
import { batchDelete } from './batch';
import { deleteDomainConfigurations } from './configurations';
import { reconcileWaiting } from './crawl-quota';
import { type Db, nowIso } from './db';
import { deleteDomainFieldHashes } from './field-hashes';
import { newId, newUuid } from './ids';
import { itemReader } from './items';
import {
  crawledPagesKey,
  domainAnalysesPartition,
  domainIndexes,
  domainKey,
  domainRunGuardKey,
  domainUuidKey,
  knowledgeKey,
  userDomainsPartition,
  watchRunsPartition,
} from './keys';
import { queryPartition, queryTable } from './query';
import { type ReportClearDeps, requestReportClear } from './report-clear';
import { deleteSchedule } from './schedules';
import { deleteDomainScriptInventory } from './script-inventory';
import { updateFields } from './update-fields';

/** The one place a stored item becomes this entity. */
export const domainFromItem = itemReader(domainSchema);

export async function createDomain(db: Db, userId: string, input: DomainCreateInput): Promise<Domain> {
  const id = newId();
  const now = nowIso();
  const domain: Domain = {
    id,
    userId,
    uuid: newUuid(),
    name: input.name,
    url: input.url,
    isActive: input.isActive,
    lastScanned: null,
    totalScans: 0,
    createdAt: now,
    updatedAt: now,
  };
  await db.doc.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: db.table,
            Item: { ...domainKey(id), ...domainIndexes(userId, id), ...domain },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: db.table,
            Item: { ...domainUuidKey(domain.uuid), domainId: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return domain;
}

export async function getDomain(db: Db, id: string): Promise<Domain | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: domainKey(id) }));
  return res.Item ? domainFromItem(res.Item) : null;
}

export async function getDomainByUuid(db: Db, uuid: string): Promise<Domain | null> {
  const ref = await db.doc.send(new GetCommand({ TableName: db.table, Key: domainUuidKey(uuid) }));
  return ref.Item ? getDomain(db, ref.Item.domainId as string) : null;
}

export async function listUserDomains(db: Db, userId: string): Promise<Domain[]> {
  const items = await queryPartition(db, {
    index: 'gsi1',
    partition: userDomainsPartition(userId),
    newestFirst: true,
  });
  return items.map(domainFromItem);
}

export async function recordScanStarted(db: Db, id: string): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: domainKey(id),
      UpdateExpression: 'ADD totalScans :one SET lastScanned = :now, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1, ':now': nowIso() },
    }),
  );
}

/** Changes a domain's fields; null when it no longer exists. */
export async function updateDomain(db: Db, id: string, input: DomainUpdateInput): Promise<Domain | null> {
  const item = await updateFields(db, domainKey(id), input);
  return item ? domainFromItem(item) : null;
}

/**
 * Deletes a domain with its analyses, reports and configurations. Its reports (a flood can leave hundreds of
 * thousands) are cleared in the background by a clear job, started first: if its message cannot be sent,
 * the caller gets a 503 and nothing is deleted. What the owner sees goes at once, the domain item last, so a
 * failure half way can be retried; the job goes on after the domain is gone (it needs nothing of it).
 */
export async function deleteDomainCascade(deps: ReportClearDeps, domain: Domain): Promise<void> {
  const { db } = deps;
  await requestReportClear(deps, domain.id);
  const keys = await queryPartition(db, {
    index: 'gsi2',
    partition: domainAnalysesPartition(domain.id),
    projection: 'pk, sk',
  });
  const analyses = keys as { pk: string; sk: string }[];
  await batchDelete(db, [
    ...analyses,
    ...analyses.map((k) => ({ pk: k.pk, sk: knowledgeKey('').sk })),
    ...analyses.map((k) => ({ pk: k.pk, sk: crawledPagesKey('').sk })),
    domainRunGuardKey(domain.id),
  ]);
  // Analyses of the domain that were waiting to crawl no longer hold places in the owner's queue.
  await reconcileWaiting(db, domain.userId);
  await deleteDomainConfigurations(db, domain.id);
  await deleteSchedule(db, domain.id);
  await deleteDomainAlerts(db, domain.id);
  await deleteDomainScriptInventory(db, domain.id);
  await deleteDomainFieldHashes(db, domain.id);
  await batchDelete(db, await queryTable(db, watchRunsPartition(domain.id)));
  // The uuid first: from here on no new report of the domain is accepted.
  await batchDelete(db, [domainUuidKey(domain.uuid), domainKey(domain.id)]);
}
