// Analyses (csp_analyses): created pending by the API, in one transaction with their place in the owner's
// crawl quota; read, listed and deleted here. While a crawler run holds one, its lease and the writes of
// the run are analysis-runs.ts'.
import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { queuePosition } from '@csp/shared/analyses/queue-position';
import { auditPolicy } from '@csp/shared/csp/audit';
import { POLICY_TARGETS } from '@csp/shared/csp/policy';
import {
  type Analysis,
  type AnalysisTrigger,
  analysisSchema,
  type CrawlRequest,
} from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
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
import { conflictBackoff, type Db, failedConditionIndexes, isTransactionConflict } from './db';
import {
  DOMAIN_BUSY_MESSAGE,
  domainRunGuardPut,
  domainRunHolder,
  releaseDomainRun,
} from './domain-run-guard';
import { newId } from './ids';
import { itemReader } from './items';
import {
  analysisIndexes,
  analysisKey,
  crawledPagesKey,
  domainAnalysesPartition,
  knowledgeKey,
  userAnalysesPartition,
} from './keys';
import { queryPartition } from './query';

/**
 * A crawl request as stored: the fields of the validated request, not its input limits and URL checks (a
 * limit changed later must not make stored analyses unreadable, and a list read need not parse every URL).
 */
export const storedCrawlRequestSchema = z.object({
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
  return withAudits(shown, r.reportUri ?? null);
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
function withAudits(a: Analysis, productEndpoint: string | null): Analysis {
  if (a.status !== 'completed' || !a.cspRules || a.audit) return a;
  const audit = auditPolicy(a.cspRules, { generatorFindings: a.findings ?? [], productEndpoint });
  const strictAudit = a.strictCspRules ? auditPolicy(a.strictCspRules, { productEndpoint }) : null;
  const resourceStats = a.resourceStats ? { ...a.resourceStats, securityIssues: audit.issues } : null;
  return { ...a, audit, strictAudit, resourceStats };
}

/** Tries of a start whose transaction met another start of the same user's at the same moment. */
const START_TRIES = 12;

/**
 * Creates a pending analysis, in one transaction with its place among the user's waiting analyses, its
 * pages reserved from the user's daily budget and, for a domain, the domain's one-run guard (all atomic
 * conditions: 50 parallel starts cannot take 21 places, two cannot both run one domain). Refused with 429
 * when the user already has the limit waiting, or the pages do not fit today; with 409 (naming the holder as
 * `analysisId`) when the domain has an analysis waiting or running.
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
    /** Who started it (default: a user). */
    trigger?: AnalysisTrigger;
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
    trigger: input.trigger ?? 'user',
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
            ...(input.domainId ? [domainRunGuardPut(db, input.domainId, id)] : []),
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
      if (failed.includes(3) && input.domainId) {
        const holder = await domainRunHolder(db, input.domainId);
        // Freed between the two reads: the next try may take it.
        if (holder === null && attempt < START_TRIES) continue;
        throw new AppError(409, DOMAIN_BUSY_MESSAGE, { analysisId: holder });
      }
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
 * What an analysis that stopped waiting or ended gives back: its waiting place, its domain (another analysis
 * of it may start), and the reserved pages its crawl did not visit. Called once per analysis, after the write that ended it (a conditional write, so a
 * second caller finds it ended and never gets here); a crash in between costs the user pages for a day at
 * most, never more crawling than the budget.
 */
export async function settleQuota(
  db: Db,
  analysis: Pick<AnalysisRecord, 'id' | 'userId' | 'domainId' | 'pagesReserved' | 'budgetDay'>,
  pagesUsed: number,
): Promise<void> {
  const { id, userId, domainId, pagesReserved: reserved, budgetDay: day } = analysis;
  await releaseWaiting(db, userId, id);
  if (domainId) await releaseDomainRun(db, domainId, id);
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
 * Deletes an analysis with what the crawl saw, and detaches it from the configurations based on it (spec:
 * their baseAnalysisId becomes null). Configurations first: a failure half way leaves no dangling base.
 */
export async function deleteAnalysisCascade(
  db: Db,
  analysis: Pick<Analysis, 'id' | 'domainId'>,
): Promise<void> {
  if (analysis.domainId) await detachBaseAnalysis(db, analysis.domainId, analysis.id);
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: knowledgeKey(analysis.id) }));
  await db.doc.send(new DeleteCommand({ TableName: db.table, Key: crawledPagesKey(analysis.id) }));
  const res = await db.doc.send(
    new DeleteCommand({ TableName: db.table, Key: analysisKey(analysis.id), ReturnValues: 'ALL_OLD' }),
  );
  // An analysis deleted before it ended gives back its waiting place and the pages it did not crawl.
  const old = res.Attributes ? analysisFromItem(res.Attributes) : null;
  if (old && (old.status === 'pending' || old.status === 'running')) {
    await settleQuota(db, old, old.totalPages);
  }
}
