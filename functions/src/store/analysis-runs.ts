// A crawler run's hold on an analysis: a lease (runId + leaseUntil), so a message delivered twice does not
// crawl twice and a crashed run can be taken over once its lease has lapsed. The run id is the digest of the
// run's token (run-token.ts): every conditional update of a run checks it, so a write for an analysis needs
// the token of its current run. Claiming, progress, completion, failure, release and queueing are here; the
// analysis item itself is analyses.ts'.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PolicyFinding } from '@csp/shared/csp/finding';
import type { CspRules, PolicyBudget, ResourceStats } from '@csp/shared/csp/policy';
import type { PolicyAudit } from '@csp/shared/csp/policy-audit';
import type { Analysis, AnalysisStage, CaptureSummary } from '@csp/shared/schemas/analysis';
import type { SubresourceIntegrity } from '@csp/shared/schemas/subresource-integrity';
import type { TrustedTypesDryRun } from '@csp/shared/schemas/trusted-types';
import { type AnalysisRecord, analysisFromItem, getAnalysis, settleQuota } from './analyses';
import { type Db, isConditionFailure, nowIso } from './db';
import { analysisKey } from './keys';
import { newCheckpointId } from './run-token';

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
  trustedTypes?: TrustedTypesDryRun | null;
  budget?: PolicyBudget | null;
  needsAttention?: boolean;
  subresourceIntegrity?: SubresourceIntegrity | null;
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
      'findings = :findings, audit = :audit, strictAudit = :strictAudit, capture = :capture, trustedTypes = :tt, budget = :budget, needsAttention = :attention, stage = :none' +
      ', subresourceIntegrity = :sri',
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
      ':tt': r.trustedTypes ?? null,
      ':budget': r.budget ?? null,
      ':attention': r.needsAttention ?? false,
      ':sri': r.subresourceIntegrity ?? null,
      ':now': nowIso(),
      ':none': null,
      ':run': runId,
      ':running': 'running',
    },
    true,
  );
  if (done) await settleQuota(db, analysisFromItem(done), r.totalPages);
  return done !== null;
}

/**
 * Replaces the integrity proposal of an analysis this run completed (the crawl writer corrects it with the
 * domain's digest history once the run is folded into the inventory).
 */
export async function setIntegrityProposal(
  db: Db,
  id: string,
  runId: string,
  proposal: SubresourceIntegrity,
): Promise<boolean> {
  try {
    await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: analysisKey(id),
        ConditionExpression: 'attribute_exists(pk) AND #s = :completed AND runId = :run',
        UpdateExpression: 'SET subresourceIntegrity = :sri',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':completed': 'completed', ':run': runId, ':sri': proposal },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
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
  if (failed) {
    const analysis = analysisFromItem(failed);
    await settleQuota(db, analysis, analysis.totalPages);
  }
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
