// The report queue's batch consumer: turns queued messages into exact counts (one update per group,
// hour and chunk), raw reports (sampled above the per-group and per-domain budgets) and one stored copy of
// each distinct policy. A message delivered twice is counted once: every message's token goes into the
// guard in the same transaction as its counts, and a redelivered message is checked against the guard.
// A domain takes REPORT_LIMITS.newGroupsPerDomainHour new groups an hour individually; the reports of
// further new groups go to the hour's one "other" counter, so a flood of distinct sources costs a bounded
// number of writes. A message whose writes fail is retried alone: the rest of its batch counts.
// The queue also carries clear messages (store/report-clear.ts): each advances its domain's clearing for a
// bounded time beside the batch's reports and, when there is more, goes into the queue again; one that
// fails is handed back alone, like a report message.

import { createHash } from 'node:crypto';
import { aggregateReports, capNewGroups, type ReportRef } from '@csp/shared/reports/aggregate';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import { sampleReports } from '@csp/shared/reports/sample';
import {
  type ReportClearMessage,
  type ReportMessage,
  reportQueueMessageSchema,
} from '@csp/shared/schemas/report';
import { aggregateFieldReports } from '@csp/shared/watch/field-digests';
import { reportedScriptUrls } from '@csp/shared/watch/inventory';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { recordAchievementEvent } from '../achievements/record';
import { newSuspiciousGroups } from '../achievements/suspicious-watch';
import { watchFieldDigests } from '../alerts/field-digest-watch';
import { watchReports } from '../alerts/report-watch';
import { errorFields, type Logger } from '../logger';
import { type Db, failedConditionIndexes, isConditionFailure } from '../store/db';
import { getDomain } from '../store/domains';
import { countFieldHashes } from '../store/field-hashes';
import { idFromSeed } from '../store/ids';
import { type ReportClearQueue, runReportClearMessage } from '../store/report-clear';
import {
  applyCounts,
  type CounterDelta,
  countedTokens,
  counterShard,
  currentHits,
  currentHourState,
  type GuardDelta,
  guardToken,
  hitsKey,
} from '../store/report-counts';
import { putPolicies, putReports, type StoredReport } from '../store/reports';
import { recordFieldScripts } from '../watch/inventory-update';
import { transactionChunks } from './chunks';

interface Delivered {
  record: SQSRecord;
  message: ReportMessage;
  token: string;
  second: number;
  redelivered: boolean;
}

export interface ConsumerOptions {
  db: Db;
  logger: Logger;
  /** Counts the table writes it makes (the ingest benchmark reports writes per 1,000 reports). */
  onWrite?: (kind: 'counts' | 'reports' | 'policies', items: number) => void;
  /**
   * Clear messages: how long each clears (config.REPORT_CLEAR_STEP_MS) before it is sent again to `queue`
   * (the report queue). Without it (a consumer that only counts), a clear message is handed back as failed,
   * with an error logged.
   */
  clear?: { queue: ReportClearQueue; stepMs: number };
}

const sha = (s: string) => createHash('sha256').update(s).digest('base64url');

export function createReportConsumer(opts: ConsumerOptions) {
  const { db, logger } = opts;
  /** Policies already stored by this process: a popular policy is written once, not once per batch. */
  const storedPolicies = new Set<string>();

  /** Counts a domain's messages; the ones that could not be counted (to be delivered again). */
  async function consumeDomain(domainId: string, batch: Delivered[]): Promise<Delivered[]> {
    // A deleted domain's reports are not counted: the ingest handler knows a domain for a minute after it
    // is gone (its cache), and what they left would outlive the background clearing of the domain.
    const domain = await getDomain(db, domainId);
    if (!domain) {
      logger.info('reports of a deleted domain, dropped', { domainId, messages: batch.length });
      return [];
    }
    const failed = await consumeDomainReports(domainId, batch);
    const counted = batch.filter((d) => !failed.includes(d));
    const fieldReports = counted.flatMap((d) => d.message.fieldReports ?? []);
    if (fieldReports.length > 0) {
      // The scripts they name join the inventory as seen by the field (when no crawl saw them), and digests
      // no crawl saw are alerts. Like the achievements, never at the cost of the batch.
      const at = new Date().toISOString();
      await recordFieldScripts(
        db,
        domain,
        fieldReports.map((r) => r.scriptUrl),
        at,
      ).catch((err) => logger.warn('field scripts not recorded', { domainId, ...errorFields(err) }));
      await watchFieldDigests(db, domain, aggregateFieldReports(fieldReports).digests).catch((err) =>
        logger.warn('field digest alerts failed', { domainId, ...errorFields(err) }),
      );
    }
    // Achievements count the reports received (a redelivered message may count twice: thresholds only).
    const received = counted.reduce((n, d) => n + d.message.reports.length, 0);
    if (received === 0) return failed;
    const now = Date.now();
    const fresh = await newSuspiciousGroups(
      db,
      domain,
      counted.flatMap((d) => d.message.reports),
    ).catch((err) => {
      // An achievement or an alert must never cost a report: stored already, the batch stands.
      logger.warn('suspicious-group check failed', { domainId, ...errorFields(err) });
      return [];
    });
    // Scripts the reports name that the inventory does not hold are listed as seen by the field only
    // (bounded per batch and per domain). Like the achievements, never at the cost of the batch.
    const scriptUrls = reportedScriptUrls(counted.flatMap((d) => d.message.reports));
    if (scriptUrls.length > 0) {
      await recordFieldScripts(db, domain, scriptUrls, new Date(now).toISOString()).catch((err) =>
        logger.warn('field scripts not recorded', { domainId, ...errorFields(err) }),
      );
    }
    await recordAchievementEvent(db, logger, domain.userId, {
      add: { reportsReceived: received },
      firstOnly: { firstReportAt: now },
      ...(fresh.length > 0 ? { atLeast: { lastSuspiciousAt: now } } : {}),
    });
    await watchReports(db, domain, fresh, now).catch((err) => {
      logger.warn('report alerts failed', { domainId, ...errorFields(err) });
    });
    return failed;
  }

  async function consumeDomainReports(domainId: string, batch: Delivered[]): Promise<Delivered[]> {
    let todo = batch;
    const redelivered = todo.filter((d) => d.redelivered);
    if (redelivered.length > 0) {
      const done = await countedTokens(db, domainId, [...new Set(redelivered.map((d) => d.second))]);
      todo = todo.filter((d) => !(d.redelivered && done.has(d.token)));
    }
    // Field hashes are counted before the messages' guard commits below (their ADDs are not in its
    // transaction): a message that fails after this is counted again when redelivered. An over-count in a
    // failure is the price of never losing a digest no crawl saw.
    const field = aggregateFieldReports(todo.flatMap((d) => d.message.fieldReports ?? []));
    if (field.digests.length + field.integrity.length > 0) await countFieldHashes(db, domainId, field);
    const failed: Delivered[] = [];
    const fail = (d: Delivered, err: unknown) => {
      logger.error('report message failed, will be delivered again', {
        domainId,
        messageId: d.record.messageId,
        ...errorFields(err),
      });
      failed.push(d);
    };
    for (const chunk of transactionChunks(todo)) {
      try {
        await consumeChunk(domainId, chunk);
      } catch (err) {
        if (chunk.length === 1) {
          fail(chunk[0]!, err);
          continue;
        }
        // One bad message fails its chunk's transaction: each is tried alone, so only it is retried (and in
        // the end dead-lettered) while the others count now. Nothing of the failed transaction was counted.
        for (const d of chunk) await consumeChunk(domainId, [d]).catch((e: unknown) => fail(d, e));
      }
    }
    return failed;
  }

  async function consumeChunk(domainId: string, chunk: Delivered[], attempt = 0): Promise<void> {
    const counts = aggregateReports(chunk.map((d) => d.message));
    const { hours } = counts;
    const all: CounterDelta[] = counts.groups.map((g) => ({
      shard: counterShard(g.directive, g.source),
      ...g,
    }));
    const [hits, hourState] = await Promise.all([
      all.length ? currentHits(db, domainId, all) : new Map<string, number>(),
      currentHourState(db, domainId, [...hours.keys()]),
    ]);
    const { counted: groups, others } = capNewGroups(all, hours, {
      known: (g) => hits.has(hitsKey(domainId, g)),
      groupsInHour: (hour) => hourState.get(hour)?.groups ?? 0,
    });

    const reportOf = (ref: ReportRef) => chunk[ref.message]!.message.reports[ref.index]!;
    const ids = counts.reports.map((ref) =>
      idFromSeed(
        Date.parse(reportOf(ref).reportedAt),
        `${chunk[ref.message]!.record.messageId}#${ref.index}`,
      ),
    );
    const countedBefore = all.map((g) => hits.get(hitsKey(domainId, g)) ?? 0);
    const kept = sampleReports(counts.reports, counts.groups, hours, {
      countedBefore: (group) => countedBefore[group]!,
      keptBefore: (hour) => hourState.get(hour)?.kept ?? 0,
      drawn: (i) =>
        createHash('sha256').update(ids[i]!).digest().readUInt32BE(0) % REPORT_LIMITS.sampleOneIn === 0,
    });
    const keep: StoredReport[] = [];
    const policies = new Map<string, string>();
    for (const i of kept) {
      const ref = counts.reports[i]!;
      const d = chunk[ref.message]!;
      const r = reportOf(ref);
      const policyHash = r.originalPolicy ? sha(r.originalPolicy) : null;
      if (policyHash && r.originalPolicy && !storedPolicies.has(`${domainId}/${policyHash}`)) {
        policies.set(policyHash, r.originalPolicy);
      }
      keep.push({
        id: ids[i]!,
        domainId,
        domainUuid: d.message.domainUuid,
        reportedUri: r.documentUri,
        blockedUri: r.blockedUri,
        violatedDirective: r.violatedDirective,
        originalPolicyHash: policyHash,
        documentUri: r.documentUri,
        referrer: r.referrer ?? null,
        statusCode: r.statusCode ?? null,
        scriptSample: r.scriptSample ?? null,
        lineNumber: r.lineNumber ?? null,
        columnNumber: r.columnNumber ?? null,
        sourceFile: r.sourceFile ?? null,
        userAgent: r.userAgent ?? null,
        clientIp: d.message.clientIp,
        disposition: r.disposition ?? null,
        reportedAt: r.reportedAt,
        createdAt: d.message.receivedAt,
      });
    }

    // Raw reports and policies first: their ids are deterministic, so writing them again is harmless; the
    // counts and the guard then commit together.
    if (policies.size > 0) {
      await putPolicies(db, domainId, policies);
      opts.onWrite?.('policies', policies.size);
      for (const h of policies.keys()) storedPolicies.add(`${domainId}/${h}`);
    }
    if (keep.length > 0) {
      await putReports(db, keep);
      opts.onWrite?.('reports', keep.length);
    }
    const guards = new Map<number, GuardDelta>();
    for (const d of chunk) {
      const g = guards.get(d.second) ?? { second: d.second, tokens: [], checked: [] };
      guards.set(d.second, g);
      g.tokens.push(d.token);
      if (d.redelivered) g.checked.push(d.token);
    }
    try {
      await applyCounts(db, domainId, {
        counters: groups,
        others,
        stats: hours,
        guards: [...guards.values()],
      });
      opts.onWrite?.('counts', groups.length + others.length + hours.size + guards.size);
    } catch (err) {
      if (attempt >= 5) throw err;
      const failedIndexes = failedConditionIndexes(err);
      if (isConditionFailure(err) && failedIndexes.length > 0) {
        // A redelivered message was counted meanwhile (by a concurrent delivery), or the hour's new groups
        // reached the cap meanwhile: drop what is done and decide again on fresh reads.
        const done = await countedTokens(db, domainId, [...guards.keys()]);
        const left = chunk.filter((d) => !done.has(d.token));
        if (left.length > 0) await consumeChunk(domainId, left, attempt + 1);
        return;
      }
      if (!isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt + Math.random() * 50));
      await consumeChunk(domainId, chunk, attempt + 1);
    }
  }

  /** Runs one clear message's step; false when it must be delivered again (logged). */
  async function consumeClear(record: SQSRecord, message: ReportClearMessage): Promise<boolean> {
    try {
      if (!opts.clear) throw new Error('This consumer does not clear reports');
      const outcome = await runReportClearMessage(db, opts.clear.queue, message, opts.clear.stepMs);
      logger.info('report clearing step', { domainId: message.domainId, outcome });
      return true;
    } catch (err) {
      logger.error('clear message failed, will be delivered again', {
        domainId: message.domainId,
        messageId: record.messageId,
        ...errorFields(err),
      });
      return false;
    }
  }

  return async function consumeReports(event: SQSEvent): Promise<SQSBatchResponse> {
    const byDomain = new Map<string, Delivered[]>();
    const clears: { record: SQSRecord; message: ReportClearMessage }[] = [];
    for (const record of event.Records) {
      const parsed = reportQueueMessageSchema.safeParse(safeJson(record.body));
      if (!parsed.success) {
        // Only the ingest handler and the API write to this queue: an unreadable message is a bug, not a retry.
        logger.error('unreadable report message, dropped', { messageId: record.messageId });
        continue;
      }
      if (parsed.data.kind === 'clear') {
        clears.push({ record, message: parsed.data });
        continue;
      }
      const list = byDomain.get(parsed.data.domainId) ?? [];
      list.push({
        record,
        message: parsed.data as ReportMessage,
        token: guardToken(record.messageId),
        second: Math.floor(Number(record.attributes.SentTimestamp) / 1000),
        redelivered: Number(record.attributes.ApproximateReceiveCount) > 1,
      });
      byDomain.set(parsed.data.domainId, list);
    }
    const failures: { itemIdentifier: string }[] = [];
    const clearing = clears.map(async ({ record, message }) => {
      if (!(await consumeClear(record, message))) failures.push({ itemIdentifier: record.messageId });
    });
    await Promise.all([
      ...clearing,
      ...[...byDomain].map(async ([domainId, list]) => {
        try {
          const failed = await consumeDomain(domainId, list);
          failures.push(...failed.map((d) => ({ itemIdentifier: d.record.messageId })));
        } catch (err) {
          logger.error('report batch of a domain failed, will be delivered again', {
            domainId,
            messages: list.length,
            ...errorFields(err),
          });
          failures.push(...list.map((d) => ({ itemIdentifier: d.record.messageId })));
        }
      }),
    ]);
    return { batchItemFailures: failures };
  };
}

function isRetryable(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name ?? '';
  return (
    name === 'TransactionCanceledException' ||
    name === 'TransactionConflictException' ||
    name === 'ProvisionedThroughputExceededException' ||
    name === 'ThrottlingException' ||
    name === 'RequestLimitExceeded' ||
    name === 'InternalServerError'
  );
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
