// Analyses (csp_analyses): created pending by the API, then owned by one crawler run at a time through a
// lease (runId + leaseUntil), so a message delivered twice does not crawl twice and a crashed run can be
// taken over once its lease has lapsed. The run id is the digest of the run's token (run-token.ts): every
// conditional update of a run checks it, so a write for an analysis needs the token of its current run.
import { DeleteCommand, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { queuePosition } from '@csp/shared/analyses/queue-position';
import { auditPolicy, type PolicyAudit } from '@csp/shared/csp/audit';
import type { PolicyFinding } from '@csp/shared/csp/finding';
import {
  type Analysis,
  type AnalysisStage,
  analysisSchema,
  type CaptureSummary,
  type CrawlRequest,
  type CspRules,
  type PolicyBudget,
  type ResourceStats,
} from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS, POLICY_TARGETS } from '@csp/shared/schemas/crawl-limits';
import * as z from 'zod';
import { AppError } from '../errors';
import { detachBaseAnalysis } from './configurations';
import {
  budgetDay,
  budgetResetsAt,
  ensureWaitingItem,
  pageReservationUpdate,
  pagesReservedToday,
  reconcileWaiting,
  refundPages,
  releaseWaiting,
  WAITING_LIMIT_MESSAGE,
  waitingAnalysisIds,
  waitingEntryUpdate,
} from './crawl-quota';
import {
  conflictBackoff,
  type Db,
  failedConditionIndexes,
  isConditionFailure,
  isTransactionConflict,
  nowIso,
} from './db';
import { newId } from './ids';
import { itemReader } from './items';
import {
  analysisIndexes,
  analysisKey,
  domainAnalysesPartition,
  knowledgeKey,
  userAnalysesPartition,
} from './keys';
import { queryPartition } from './query';
import { newCheckpointId } from './run-token';

/**
 * A crawl request as stored: the fields of the validated request, not its input limits and URL checks (a
 * limit changed later must not make stored analyses unreadable, and a list read need not parse every URL).
 */
const storedCrawlRequestSchema = z.object({
  url: z.string().optional(),
  urlList: z.array(z.string()).default([]),
  sitemapContent: z.string().optional(),
  maxPages: z.number(),
  crawlDelay: z.number(),
  userAgent: z.string().default(''),
  headerBudget: z.number().default(CRAWL_LIMITS.headerBudget.default),
  policyTarget: z.enum(POLICY_TARGETS).default('header'),
}) satisfies z.ZodType<CrawlRequest>;

/** An analysis as stored: what the API shows, and the crawler's bookkeeping. */
const analysisRecordSchema = analysisSchema.extend({
  crawlRequest: storedCrawlRequestSchema,
  /** The crawler run holding the analysis (its token's digest), and until when (epoch ms). */
  runId: z.string().nullable(),
  /** Names the analysis' crawl state in the blob store; random, set by the first claim. */
  checkpointId: z.string().optional(),
  leaseUntil: z.number().nullable(),
  /** How many times a run was started (first delivery, continuations and retries). */
  runs: z.number(),
  /** Why the last run gave up, for the dead-letter message. */
  lastError: z.string().optional(),
  /** Waiting for a slot (stage 'queued'): a run will look again before this (epoch ms). */
  queuedUntil: z.number().nullable().optional(),
  /** Where the generated policy tells browsers to send reports (analyses of a domain). */
  reportUri: z.string().nullable().optional(),
  /** Pages taken from the user's daily budget at the start, and the UTC day they count on. */
  pagesReserved: z.number().optional(),
  budgetDay: z.string().optional(),
});
export type AnalysisRecord = z.infer<typeof analysisRecordSchema>;

/** The one place a stored item becomes an analysis. */
export const analysisFromItem = itemReader(analysisRecordSchema);

/** What the API shows: the analysis without the crawler's bookkeeping. */
export function toAnalysis(r: AnalysisRecord): Analysis {
  const {
    crawlRequest: _c,
    runId: _r,
    leaseUntil: _l,
    runs: _n,
    lastError: _e,
    queuedUntil: _q,
    reportUri: _u,
    pagesReserved: _p,
    budgetDay: _d,
    checkpointId: _k,
    ...rest
  } = r;
  const shown: Analysis = { ...rest, startedAt: rest.startedAt ?? null };
  return withAudits(shown);
}

/**
 * What the API shows for these analyses, with each waiting one's place among its user's waiting analyses
 * (one read of the user's waiting item per user with an analysis waiting, none otherwise).
 */
export async function toAnalysesWithPositions(db: Db, records: AnalysisRecord[]): Promise<Analysis[]> {
  const users = [...new Set(records.filter((r) => r.status === 'pending').map((r) => r.userId))];
  const waiting = new Map(
    await Promise.all(users.map(async (u) => [u, await waitingAnalysisIds(db, u)] as const)),
  );
  return records.map((r) => ({
    ...toAnalysis(r),
    queuePosition: queuePosition(r, waiting.get(r.userId) ?? []),
  }));
}

/**
 * Analyses completed before policies were audited get their audits on read (the same function the crawler
 * runs at completion), and their Issues count from it, so badge, tile and grade agree on old ones too.
 */
function withAudits(a: Analysis): Analysis {
  if (a.status !== 'completed' || !a.cspRules || a.audit) return a;
  const audit = auditPolicy(a.cspRules, { generatorFindings: a.findings ?? [] });
  const strictAudit = a.strictCspRules ? auditPolicy(a.strictCspRules) : null;
  const resourceStats = a.resourceStats ? { ...a.resourceStats, securityIssues: audit.issues } : null;
  return { ...a, audit, strictAudit, resourceStats };
}

/** Tries of a start whose transaction met another start of the same user's at the same moment. */
const START_TRIES = 12;

/**
 * Creates a pending analysis, in one transaction with its place among the user's waiting analyses and its
 * pages reserved from the user's daily budget (both atomic conditions: 50 parallel starts cannot take 21
 * places). Refused with 429 when the user already has the limit waiting, or the pages do not fit today.
 */
export async function createAnalysis(
  db: Db,
  input: {
    userId: string;
    domainId: string | null;
    url: string;
    crawlRequest: CrawlRequest;
    reportUri?: string | null;
    /** Pages the user's analyses may reserve per UTC day (config CRAWL_DAILY_PAGES). */
    dailyPages?: number;
  },
): Promise<AnalysisRecord> {
  const id = newId();
  const now = Date.now();
  // The most pages the crawl can visit, whatever its start (URL, sitemap or URL list): maxPages bounds all.
  const pages = input.crawlRequest.maxPages;
  const dailyPages = input.dailyPages ?? CRAWL_LIMITS.dailyPagesPerUser.default;
  const record: AnalysisRecord = {
    id,
    domainId: input.domainId,
    userId: input.userId,
    url: input.url,
    status: 'pending',
    progress: 0,
    totalPages: 0,
    currentPage: null,
    cspRules: null,
    strictCspRules: null,
    resourceStats: null,
    errors: [],
    userAgent: input.crawlRequest.userAgent,
    maxPages: input.crawlRequest.maxPages,
    crawlDelay: input.crawlRequest.crawlDelay,
    verification: null,
    createdAt: new Date(now).toISOString(),
    // startedAt is absent until a run claims it (if_not_exists in claimAnalysis keeps the first start).
    completedAt: null,
    crawlRequest: input.crawlRequest,
    runId: null,
    leaseUntil: null,
    runs: 0,
    reportUri: input.reportUri ?? null,
    pagesReserved: pages,
    budgetDay: budgetDay(now),
  };
  await ensureWaitingItem(db, input.userId, now);
  let reconciled = false;
  for (let attempt = 1; ; attempt++) {
    try {
      await db.doc.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: db.table,
                Item: { ...analysisKey(id), ...analysisIndexes(input.userId, input.domainId, id), ...record },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            waitingEntryUpdate(db, input.userId, id, now),
            pageReservationUpdate(db, input.userId, pages, dailyPages, now),
          ],
        }),
      );
      return record;
    } catch (err) {
      const failed = failedConditionIndexes(err);
      if (failed.includes(1)) {
        // Entries a crash left behind must not hold places: drop them once, then try again.
        if (!reconciled && (await reconcileWaiting(db, input.userId)) > 0) {
          reconciled = true;
          continue;
        }
        throw new AppError(429, WAITING_LIMIT_MESSAGE);
      }
      if (failed.includes(2)) throw await pageBudgetError(db, input.userId, pages, dailyPages);
      if (isTransactionConflict(err) && attempt < START_TRIES) {
        await conflictBackoff(attempt);
        continue;
      }
      throw err;
    }
  }
}

async function pageBudgetError(db: Db, userId: string, pages: number, dailyPages: number) {
  const used = await pagesReservedToday(db, userId);
  const resets = budgetResetsAt();
  const hours = Math.max(1, Math.ceil((resets.getTime() - Date.now()) / 3_600_000));
  const fmt = (n: number) => n.toLocaleString('en-US');
  return new AppError(
    429,
    `Daily page budget reached: your analyses have used or reserved ${fmt(used)} of ${fmt(dailyPages)} pages today and this one needs up to ${fmt(pages)} (its maximum pages). The budget resets at 00:00 UTC (in about ${hours} hour${hours === 1 ? '' : 's'}); a smaller maximum pages may fit now.`,
    { resetsAt: resets.toISOString() },
  );
}

/**
 * What an analysis that stopped waiting or ended gives back: its waiting place, and the reserved pages its
 * crawl did not visit. Called once per analysis, after the write that ended it (a conditional write, so a
 * second caller finds it ended and never gets here); a crash in between costs the user pages for a day at
 * most, never more crawling than the budget.
 */
async function settleQuota(db: Db, item: Record<string, unknown>, pagesUsed: number): Promise<void> {
  const userId = item.userId as string | undefined;
  if (!userId) return;
  await releaseWaiting(db, userId, item.id as string);
  const reserved = item.pagesReserved as number | undefined;
  const day = item.budgetDay as string | undefined;
  if (reserved && day) await refundPages(db, userId, day, reserved - Math.max(0, pagesUsed));
}

/** `consistent`: a strongly consistent read, for deciding right after a write (the crawl's outcome). */
export async function getAnalysis(db: Db, id: string, consistent = false): Promise<AnalysisRecord | null> {
  const res = await db.doc.send(
    new GetCommand({
      TableName: db.table,
      Key: analysisKey(id),
      ...(consistent ? { ConsistentRead: true } : {}),
    }),
  );
  return res.Item ? analysisFromItem(res.Item) : null;
}

async function queryAll(db: Db, index: 'gsi1' | 'gsi2', partition: string, limit: number) {
  return (await queryPartition(db, { index, partition, limit, newestFirst: true })).map(analysisFromItem);
}

/** Newest first. Capped: the dashboard and the polling domain screen need the recent ones, not all history. */
export const listUserAnalyses = (db: Db, userId: string, limit = 500) =>
  queryAll(db, 'gsi1', userAnalysesPartition(userId), limit);

export const listDomainAnalyses = (db: Db, domainId: string, limit = 500) =>
  queryAll(db, 'gsi2', domainAnalysesPartition(domainId), limit);

/**
 * Takes the analysis for a crawler run: pending (or a continuation by the same run) becomes running.
 * A running analysis whose lease has lapsed can be taken over by a new run.
 * Returns null when another live run holds it or it is already finished.
 */
export async function claimAnalysis(
  db: Db,
  id: string,
  runId: string,
  leaseMs: number,
  now = Date.now(),
): Promise<AnalysisRecord | null> {
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: analysisKey(id),
        ConditionExpression:
          'attribute_exists(pk) AND (#s = :pending OR (#s = :running AND (runId = :run OR leaseUntil < :now)))',
        UpdateExpression:
          'SET #s = :running, runId = :run, leaseUntil = :lease, startedAt = if_not_exists(startedAt, :iso), ' +
          'checkpointId = if_not_exists(checkpointId, :checkpoint) ADD runs :one',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':pending': 'pending',
          ':running': 'running',
          ':run': runId,
          ':now': now,
          ':lease': now + leaseMs,
          ':iso': nowIso(),
          ':checkpoint': newCheckpointId(),
          ':one': 1,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return analysisFromItem(res.Attributes ?? {});
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

export interface ProgressUpdate {
  /** The phase the run is in (shown as the analysis' stage). */
  stage?: AnalysisStage;
  progress: number;
  currentPage: string | null;
  totalPages: number;
  /** Extends the lease while the run is alive. */
  leaseUntil?: number;
}

/** Writes progress if this run still holds the analysis; false when it has lost it (stop crawling). */
export async function updateProgress(db: Db, id: string, runId: string, p: ProgressUpdate): Promise<boolean> {
  const sets = ['progress = :p', 'currentPage = :c', 'totalPages = :t'];
  const values: Record<string, unknown> = {
    ':p': Math.max(0, Math.min(100, Math.round(p.progress))),
    ':c': p.currentPage,
    ':t': p.totalPages,
    ':run': runId,
    ':running': 'running',
  };
  if (p.leaseUntil !== undefined) {
    sets.push('leaseUntil = :l');
    values[':l'] = p.leaseUntil;
  }
  if (p.stage !== undefined) {
    sets.push('stage = :stage');
    values[':stage'] = p.stage;
  }
  return (await conditionalUpdate(db, id, `SET ${sets.join(', ')}`, values)) !== null;
}

export interface AnalysisResult {
  cspRules: CspRules;
  strictCspRules?: CspRules | null;
  resourceStats: ResourceStats;
  errors: string[];
  totalPages: number;
  verification?: Analysis['verification'];
  findings?: PolicyFinding[];
  audit?: PolicyAudit | null;
  strictAudit?: PolicyAudit | null;
  capture?: CaptureSummary | null;
  budget?: PolicyBudget | null;
  needsAttention?: boolean;
}

export async function completeAnalysis(
  db: Db,
  id: string,
  runId: string,
  r: AnalysisResult,
): Promise<boolean> {
  const done = await conditionalUpdate(
    db,
    id,
    'SET #s = :completed, progress = :hundred, cspRules = :rules, strictCspRules = :strict, resourceStats = :stats, ' +
      'errors = :errors, totalPages = :t, verification = :v, completedAt = :now, currentPage = :none, leaseUntil = :none, ' +
      'findings = :findings, audit = :audit, strictAudit = :strictAudit, capture = :capture, budget = :budget, needsAttention = :attention, stage = :none',
    {
      ':completed': 'completed',
      ':hundred': 100,
      ':rules': r.cspRules,
      ':strict': r.strictCspRules ?? null,
      ':stats': r.resourceStats,
      ':errors': r.errors,
      ':t': r.totalPages,
      ':v': r.verification ?? null,
      ':findings': r.findings ?? [],
      ':audit': r.audit ?? null,
      ':strictAudit': r.strictAudit ?? null,
      ':capture': r.capture ?? null,
      ':budget': r.budget ?? null,
      ':attention': r.needsAttention ?? false,
      ':now': nowIso(),
      ':none': null,
      ':run': runId,
      ':running': 'running',
    },
    true,
  );
  if (done) await settleQuota(db, done, r.totalPages);
  return done !== null;
}

/**
 * Fails the analysis with the reasons. With a runId, only if that run still holds it; with null (the
 * dead-letter path, the stale-run sweep), whenever it is not finished yet.
 */
export async function failAnalysis(
  db: Db,
  id: string,
  runId: string | null,
  errors: string[],
): Promise<boolean> {
  const expr =
    'SET #s = :failed, errors = list_append(if_not_exists(errors, :empty), :errors), completedAt = :now, leaseUntil = :none, stage = :none';
  const values = { ':failed': 'failed', ':errors': errors, ':empty': [], ':now': nowIso(), ':none': null };
  const failed = runId
    ? await conditionalUpdate(db, id, expr, { ...values, ':run': runId, ':running': 'running' }, true)
    : await failUnfinished(db, id, expr, values);
  // The pages the run got to (planned ones included) count as used.
  if (failed) await settleQuota(db, failed, (failed.totalPages as number | undefined) ?? 0);
  return failed !== null;
}

async function failUnfinished(db: Db, id: string, expr: string, values: Record<string, unknown>) {
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: analysisKey(id),
        ConditionExpression: 'attribute_exists(pk) AND #s IN (:pending, :running)',
        UpdateExpression: expr,
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ...values, ':pending': 'pending', ':running': 'running' },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ?? null;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/**
 * Updates the analysis if this run holds it: null when the run lost it, else the item as it now is (only
 * with `returnItem`: the ends of an analysis need its owner and reservation; progress writes do not).
 */
async function conditionalUpdate(
  db: Db,
  id: string,
  update: string,
  values: Record<string, unknown>,
  returnItem = false,
): Promise<Record<string, unknown> | null> {
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: analysisKey(id),
        ConditionExpression: 'attribute_exists(pk) AND #s = :running AND runId = :run',
        UpdateExpression: update,
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: values,
        ReturnValues: returnItem ? 'ALL_NEW' : 'NONE',
      }),
    );
    return res.Attributes ?? {};
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/** How long past its lease a running analysis may stay silent before it counts as lost. */
export const STALE_AFTER_LEASE_MS = 20 * 60 * 1000;
/** How long an analysis may wait in the queue before it counts as lost. */
export const STALE_PENDING_MS = 60 * 60 * 1000;

export function isStale(a: AnalysisRecord, now = Date.now()): boolean {
  if (a.status === 'running') return (a.leaseUntil ?? 0) + STALE_AFTER_LEASE_MS < now;
  if (a.status === 'pending') {
    // Waiting for a slot is not lost while a run keeps looking (each look pushes queuedUntil on).
    if (a.queuedUntil) return a.queuedUntil + STALE_AFTER_LEASE_MS < now;
    return Date.parse(a.createdAt) + STALE_PENDING_MS < now;
  }
  return false;
}

/**
 * Fails analyses whose crawl was lost (a message that vanished, a worker that died past every retry), so
 * none stays "running" forever. Called where analyses are read; returns the records as they now are.
 */
export async function failStale(
  db: Db,
  records: AnalysisRecord[],
  now = Date.now(),
): Promise<AnalysisRecord[]> {
  return Promise.all(
    records.map(async (a) => {
      if (!isStale(a, now)) return a;
      const message =
        a.status === 'running'
          ? 'The crawl stopped responding and was marked as failed. Please start a new analysis.'
          : 'The crawl never started and was marked as failed. Please start a new analysis.';
      const failed = await failAnalysis(db, a.id, null, [message]);
      return failed ? ((await getAnalysis(db, a.id)) ?? a) : a;
    }),
  );
}

/**
 * The run lets go of the analysis without finishing it: before a continuation (the next invocation claims
 * it) or after an error (the redelivered message claims it). `lastError` is kept for the dead-letter path.
 */
export async function releaseAnalysis(
  db: Db,
  id: string,
  runId: string,
  lastError?: string,
): Promise<boolean> {
  const held = await conditionalUpdate(
    db,
    id,
    lastError ? 'SET leaseUntil = :zero, lastError = :e' : 'SET leaseUntil = :zero',
    {
      ':zero': 0,
      ':run': runId,
      ':running': 'running',
      ...(lastError ? { ':e': lastError.slice(0, 1000) } : {}),
    },
  );
  return held !== null;
}

/**
 * The run gives the analysis back to wait for one of its user's slots: pending again, stage 'queued', and
 * a time by which a run looks again (the re-sent message's delay plus a margin).
 */
export async function queueAnalysis(
  db: Db,
  id: string,
  runId: string,
  lookAgainBy: number,
): Promise<boolean> {
  const held = await conditionalUpdate(
    db,
    id,
    'SET #s = :pending, stage = :queued, runId = :none, leaseUntil = :none, queuedUntil = :until',
    {
      ':pending': 'pending',
      ':queued': 'queued',
      ':none': null,
      ':until': lookAgainBy,
      ':run': runId,
      ':running': 'running',
    },
  );
  return held !== null;
}

/**
 * Deletes an analysis with what the crawl saw, and detaches it from the configurations based on it (spec:
 * their baseAnalysisId becomes null). Configurations first: a failure half way leaves no dangling base.
 */
export async function deleteAnalysisCascade(
  db: Db,
  analysis: Pick<Analysis, 'id' | 'domainId'>,
): Promise<void> {
  if (analysis.domainId) await detachBaseAnalysis(db, analysis.domainId, analysis.id);
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: knowledgeKey(analysis.id) }));
  const res = await db.doc.send(
    new DeleteCommand({ TableName: db.table, Key: analysisKey(analysis.id), ReturnValues: 'ALL_OLD' }),
  );
  // An analysis deleted before it ended gives back its waiting place and the pages it did not crawl.
  const old = res.Attributes;
  if (old && (old.status === 'pending' || old.status === 'running')) {
    await settleQuota(db, old, (old.totalPages as number | undefined) ?? 0);
  }
}
