// One run of an analysis, from a queue message to a stored result: claim the analysis (lease), take one of
// its user's run slots (or wait, queued), crawl (or continue a crawl), then generate the policy from what
// the crawl saw — inline code that changed between loads marked unstable, fitted to the header budget —,
// try it on a sample of pages, refine it once from what that showed, try again, and store the outcome with
// every finding. The SQS handler (handler.ts) only turns records into calls of runAnalysis.
//
// At-least-once delivery: every run claims the analysis with a fresh run id and a lease, so a duplicate
// delivery finds it held and does nothing. Long crawls stop before the invocation's time runs out, store
// their state in the blob store, release the lease and queue a continuation. An error releases the lease
// and is thrown, so SQS delivers the message again and the next run resumes from the last checkpoint.

import { randomUUID } from 'node:crypto';
import type { CrawlArtifact } from '@csp/shared/csp/artifact';
import { auditPolicy } from '@csp/shared/csp/audit';
import type { PolicyFinding } from '@csp/shared/csp/finding';
import { generatePolicy } from '@csp/shared/csp/generate';
import { REPORTING_GROUP, serializePolicy } from '@csp/shared/csp/serialize';
import { markUnstableInline } from '@csp/shared/csp/stability';
import { computeResourceStats } from '@csp/shared/csp/stats';
import { crawlKnowledge } from '@csp/shared/reports/knowledge';
import type { CspRules, Verification } from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { recordAchievementEvent } from '../achievements/record';
import type { AnalysisQueue } from '../api/deps';
import type { BlobStore } from '../blobs';
import { errorFields, type Logger } from '../logger';
import {
  type AnalysisRecord,
  claimAnalysis,
  completeAnalysis,
  failAnalysis,
  queueAnalysis,
  releaseAnalysis,
  updateProgress,
} from '../store/analyses';
import type { Db } from '../store/db';
import { putKnowledge } from '../store/knowledge';
import { acquireRunSlot, releaseRunSlot } from '../store/run-slots';
import { firstCrawlError, incompleteLine, summarizeCapture } from './capture-summary';
import { checkpointKey, crawlArtifact, type RunCrawlOptions, runCrawl } from './crawl';
import { phaseProgress } from './progress';
import { queuedRecheckSeconds, wakeNextWaiting } from './queued-wait';
import { refineArtifact } from './refine';
import { type CrawlState, parseCrawlState } from './state';
import { verifyPolicy } from './verify';

export interface AnalysisRunDeps {
  db: Db;
  queue: AnalysisQueue;
  blobs: BlobStore;
  logger: Logger;
  allowPrivateTargets: boolean;
  /** The product's own ports (local mode: the API, DynamoDB Local), never crawled on this machine. */
  ownPorts?: readonly number[];
  /** Test hooks for the crawl itself (settle times, a narrowed address check, interaction, re-renders). */
  crawlOptions?: Pick<
    RunCrawlOptions,
    'settle' | 'checkAddress' | 'concurrency' | 'pageReserveMs' | 'interactionBudgetMs' | 'rerender'
  >;
  /** Seconds a queued analysis first waits before its run looks for a free slot again (then longer). */
  queuedRecheckSeconds?: number;
}

/** Time kept after the crawl for generating, verifying (twice) and saving the policy. */
export const FINISH_RESERVE_MS = 150_000;
/** A lease outlives the run by this much, so a crashed run is taken over soon after. */
const LEASE_MARGIN_MS = 60_000;
const QUEUED_RECHECK_SECONDS = 30;

export async function runAnalysis(
  deps: AnalysisRunDeps,
  analysisId: string,
  runDeadline: number,
): Promise<void> {
  const { db } = deps;
  const runId = randomUUID();
  const log = deps.logger.child({ analysisId, runId });
  const leaseFor = () => runDeadline - Date.now() + LEASE_MARGIN_MS;
  const analysis = await claimAnalysis(db, analysisId, runId, leaseFor());
  if (!analysis) {
    log.info('analysis is finished or held by another run; message dropped');
    return;
  }
  const slot = { userId: analysis.userId, analysisId };
  if (!(await acquireRunSlot(db, { ...slot, leaseUntil: Date.now() + leaseFor() }))) {
    // The user's other analyses hold every slot: wait, shown as queued, and look again later (or sooner,
    // woken by the run that frees a slot).
    const wait = queuedRecheckSeconds(deps.queuedRecheckSeconds ?? QUEUED_RECHECK_SECONDS, analysis.runs);
    if (await queueAnalysis(db, analysisId, runId, Date.now() + wait * 1000 + LEASE_MARGIN_MS)) {
      await deps.queue.send({ analysisId }, { group: analysis.userId, delaySeconds: wait });
      log.info('analysis queued: the user has no free run slot', { waitSeconds: wait });
    }
    return;
  }
  try {
    const finished = await crawlAndFinish(deps, analysis, runId, runDeadline, leaseFor, log);
    if (finished) {
      await releaseRunSlot(db, slot);
      await wakeNextWaiting(db, deps.queue, analysis.userId, log);
    }
  } catch (err) {
    const message = errorFields(err).error;
    log.error('crawl run failed; the message will be delivered again', errorFields(err));
    await releaseAnalysis(db, analysisId, runId, message).catch(() => {});
    await releaseRunSlot(db, slot).catch(() => {});
    await wakeNextWaiting(db, deps.queue, analysis.userId, log);
    throw err;
  }
}

/** Crawls, then finishes; false when the crawl continues in another run (the slot stays held). */
async function crawlAndFinish(
  deps: AnalysisRunDeps,
  analysis: AnalysisRecord,
  runId: string,
  runDeadline: number,
  leaseFor: () => number,
  log: Logger,
): Promise<boolean> {
  const { db } = deps;
  const key = checkpointKey(analysis.id);
  const stored = analysis.runs > 1 ? await deps.blobs.get(key) : null;
  const state: CrawlState | null = stored ? parseCrawlState(JSON.parse(stored.toString('utf8'))) : null;
  const request = analysis.crawlRequest;
  let lost = false;
  const result = await runCrawl({ ...request, analysisId: analysis.id }, state, {
    ...deps.crawlOptions,
    deadline: runDeadline - FINISH_RESERVE_MS,
    allowPrivateTargets: deps.allowPrivateTargets,
    ownPorts: deps.ownPorts,
    blobStore: deps.blobs,
    onProgress: async (p) => {
      const held = await updateProgress(db, analysis.id, runId, {
        stage: p.phase,
        progress: p.progress,
        currentPage: p.currentPage,
        totalPages: p.totalPages,
        leaseUntil: Date.now() + leaseFor(),
      });
      if (!held) lost = true;
    },
  });
  if (lost) {
    log.warn('another run took the analysis over; this run stops without writing');
    return false;
  }

  if (!result.done) {
    await deps.blobs.put(key, JSON.stringify(result.state), 'application/json');
    if (!(await releaseAnalysis(db, analysis.id, runId))) return false;
    const delaySeconds = Math.ceil((result.resumeAfterMs ?? 0) / 1000);
    await deps.queue.send({ analysisId: analysis.id }, { group: analysis.userId, delaySeconds });
    log.info('crawl continues in a new run', { pagesDone: result.state.pagesDone, delaySeconds });
    return false;
  }

  const crawled = result.state.pages.filter((p) => p.status < 400);
  if (crawled.length === 0) {
    const errors = result.state.errors;
    const first = firstCrawlError(errors);
    const headline = first ? `No page could be crawled: ${first}` : 'No page could be crawled.';
    await failAnalysis(db, analysis.id, runId, [headline, ...errors.filter((e) => e !== first)]);
    await deps.blobs.delete(key);
    return true;
  }
  const progress = (stage: 'generating' | 'verifying', fraction: number) =>
    updateProgress(db, analysis.id, runId, {
      stage,
      progress: Math.max(result.state.progress, phaseProgress(stage, fraction)),
      currentPage: null,
      totalPages: result.state.pages.length,
      leaseUntil: Date.now() + leaseFor(),
    });
  await progress('generating', 0);

  // Inline code whose hash changed on a second load cannot be allowed by hash (styles get
  // 'unsafe-inline', scripts a finding): mark it before generating.
  const marked = markUnstableInline(crawlArtifact(result.state), result.state.rerenders);
  const budget = {
    target: request.policyTarget ?? 'header',
    limit: request.headerBudget ?? CRAWL_LIMITS.headerBudget.default,
  } as const;
  let artifact: CrawlArtifact = marked.artifact;
  // Policies of a domain's analysis report to the product (report-uri, and report-to for the Reporting API).
  const reporting = analysis.reportUri ? { reportUri: analysis.reportUri, reportTo: REPORTING_GROUP } : {};
  let allowlist = generatePolicy(artifact, { mode: 'allowlist', budget, ...reporting });

  // A policy we hand out is one we have tried: a sample of the pages again, with it as report-only and the
  // same interaction; what it blocks is added once (same rules: hashes only when stable) and tried again.
  const pages = crawled.filter((p) => !p.incomplete).map((p) => p.finalUrl);
  const verifyDeadline = runDeadline - 15_000;
  const verify = (policy: string, from: number, to: number) =>
    verifyPolicy({
      pages,
      policy,
      siteOrigin: artifact.origin,
      allowPrivateTargets: deps.allowPrivateTargets,
      ownPorts: deps.ownPorts,
      userAgent: request.userAgent || undefined,
      deadline: verifyDeadline,
      ...(deps.crawlOptions?.settle ? { settle: deps.crawlOptions.settle } : {}),
      ...(deps.crawlOptions?.checkAddress ? { checkAddress: deps.crawlOptions.checkAddress } : {}),
      ...(deps.crawlOptions?.interactionBudgetMs !== undefined
        ? { interactionBudgetMs: deps.crawlOptions.interactionBudgetMs }
        : {}),
      onPage: (checked, total) => void progress('verifying', from + ((to - from) * checked) / total),
    });
  await progress('verifying', 0);
  // Verification reads violations in the page itself: the crawler must not post reports to the product.
  const first = await verify(serializePolicy(withoutReporting(allowlist.rules)), 0, 0.5);
  let final = first;
  let refined = false;
  if (first.violations > 0 && Date.now() < verifyDeadline - 30_000) {
    artifact = markUnstableInline(
      refineArtifact(marked.artifact, first.pagesWithViolations),
      result.state.rerenders,
    ).artifact;
    allowlist = generatePolicy(artifact, { mode: 'allowlist', budget, ...reporting });
    final = await verify(serializePolicy(withoutReporting(allowlist.rules)), 0.5, 1);
    refined = true;
  }
  const strict = generatePolicy(artifact, { mode: 'strict', budget, ...reporting });

  const capture = summarizeCapture(result.state, marked.unstable);
  const findings: PolicyFinding[] = [...allowlist.findings];
  const errors = [...result.state.errors];
  const incomplete = incompleteLine(capture);
  if (incomplete) errors.push(incomplete);
  if (final.violations > 0) {
    const where = [...new Set(final.blocked.map((b) => b.page))];
    const text = `Verification: the policy still blocks ${final.violations} item(s) on ${where.length} page(s) (${final.samples.slice(0, 3).join('; ')}). Review them before enforcing it.`;
    errors.push(text);
    findings.unshift({
      severity: 'high',
      directive: '',
      code: 'verification-violations',
      value: String(final.violations),
      description: text,
      checker: 'generator',
    });
  }
  if (final.unchecked.length > 0) {
    errors.push(
      `Verification could not check ${final.unchecked.length} page(s): ${final.unchecked.slice(0, 3).join(', ')}`,
    );
  }
  const verification: Verification = {
    pagesChecked: final.pagesChecked,
    violations: final.violations,
    samples: final.samples,
    firstPassViolations: first.violations,
    refined,
    remaining: final.blocked,
  };
  // One audit per policy: the stored findings every screen reads (badge, issues, grade, recommendations).
  const audit = auditPolicy(allowlist.rules, { generatorFindings: findings });
  const strictAudit = auditPolicy(strict.rules, { generatorFindings: strict.findings });
  const needsAttention =
    final.violations > 0 ||
    capture.pagesIncomplete > 0 ||
    !allowlist.budget.fits ||
    findings.some((f) => f.severity === 'high');
  const completed = await completeAnalysis(db, analysis.id, runId, {
    cspRules: allowlist.rules,
    strictCspRules: strict.rules,
    resourceStats: computeResourceStats(artifact, audit),
    errors,
    totalPages: result.state.pages.length,
    verification,
    findings,
    audit,
    strictAudit,
    capture,
    budget: allowlist.budget,
    needsAttention,
  });
  if (completed) {
    // Achievements of a completed analysis: one more analysis, and what its policy earned.
    await recordAchievementEvent(db, log, analysis.userId, {
      add: {
        analyses: 1,
        cleanPolicies: audit.findings.some((f) => f.code === 'unsafe-inline') ? 0 : 1,
        verifiedClean: final.pagesChecked > 0 && final.violations === 0 ? 1 : 0,
        aPlus: audit.grade === 'A+' || strictAudit.grade === 'A+' ? 1 : 0,
      },
    });
    // What the crawl saw, for judging the domain's violation reports later (suggestions).
    if (analysis.domainId) await putKnowledge(db, crawlKnowledge(analysis.id, artifact));
    await deps.blobs.delete(key);
  }
  log.info('analysis completed', {
    pages: result.state.pages.length,
    firstPassViolations: first.violations,
    violations: final.violations,
  });
  return true;
}

function withoutReporting(rules: CspRules): CspRules {
  const { 'report-uri': _u, 'report-to': _t, ...rest } = rules;
  return rest;
}
