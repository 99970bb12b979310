// The crawler's part of one run of an analysis: continue from the stored state (or start), crawl, then
// generate the policy from what the crawl saw — inline code that changed between loads marked unstable,
// fitted to the header budget —, try it on a sample of pages, refine it once from what that showed, try
// again, and hand the outcome with every finding to the crawl writer. What it all comes to is judged by one
// pure function (shared/src/analyses/outcome.ts); this code gathers and stores. Claiming the analysis, run
// slots, continuations and retries are the coordinator's (coordinator.ts): this code runs hostile pages and
// holds nothing but its job (job.ts) — the run's token for the writer, and its own checkpoint in the blob
// store.
//
// Long crawls stop before the deadline, store their state at the checkpoint and answer 'continue'; the
// coordinator queues the continuation. An error is thrown: the coordinator releases the run, and the message
// is delivered again, so the next run resumes from the last checkpoint.

import { summarizeCrawledPages } from '@csp/shared/analyses/crawled-pages';
import { analysisOutcome, outcomeOptions, policyToVerify } from '@csp/shared/analyses/outcome';
import { stageBands, stagePercent } from '@csp/shared/analyses/progress-bands';
import type { CrawlArtifact } from '@csp/shared/csp/artifact';
import { markUnstableInline } from '@csp/shared/csp/stability';
import { integrityProposal } from '@csp/shared/integrity/proposal';
import { crawlKnowledge } from '@csp/shared/reports/knowledge';
import { dryRunOf } from '@csp/shared/trusted-types/dry-run';
import { runSnapshotOf } from '@csp/shared/watch/run-snapshot';
import type { BlobStore } from '../blobs';
import { cutErrors, type ProgressReport, WRITER_LIMITS } from '../crawl-writer/requests';
import type { CrawlWriter } from '../crawl-writer/writer';
import type { Logger } from '../logger';
import { packKnowledge } from '../store/knowledge';
import { packSnapshot } from '../watch/snapshot-pack';
import { firstCrawlError, summarizeCapture } from './capture-summary';
import { checkpointKey, crawlArtifact, type RunCrawlOptions, runCrawl } from './crawl';
import { EngineVerifier } from './engines-verify';
import type { SecondEngine } from './firefox';
import type { FirefoxKeeper } from './firefox-verify';
import type { AnalysisJob, AnalysisJobResult } from './job';
import { latestProgressSender } from './progress';
import { refineArtifact } from './refine';
import { type CrawlState, parseCrawlState } from './state';

export interface AnalysisJobDeps {
  writer: CrawlWriter;
  blobs: BlobStore;
  logger: Logger;
  allowPrivateTargets: boolean;
  /** The product's own ports (local mode: the API, DynamoDB Local), never crawled on this machine. */
  ownPorts?: readonly number[];
  /**
   * Firefox for verification beside Chromium (local mode, CI), or why there is none (AWS: Lambda has no
   * Firefox). Absent: Chromium only, said so in the analysis.
   */
  secondEngine?: SecondEngine | { keeper: FirefoxKeeper };
  /** Test hooks for the crawl itself (settle times, a narrowed address check, interaction, re-renders). */
  crawlOptions?: Pick<
    RunCrawlOptions,
    'settle' | 'checkAddress' | 'concurrency' | 'pageReserveMs' | 'interactionBudgetMs' | 'rerender'
  >;
}

/** Time kept after the crawl for generating, verifying (twice) and saving the policy. */
export const FINISH_RESERVE_MS = 150_000;

/** Runs the job; `ownDeadline` is when this process must have answered (the Lambda's own time limit). */
export async function runAnalysisJob(
  deps: AnalysisJobDeps,
  job: AnalysisJob,
  ownDeadline = Number.POSITIVE_INFINITY,
): Promise<AnalysisJobResult> {
  // Firefox takes seconds to start: `npm start` keeps one running (a keeper); otherwise it starts with the
  // crawl, so verification does not wait for it.
  const verifier = new EngineVerifier(
    deps.secondEngine ?? { unavailable: 'this crawler runs Chromium only' },
    {
      allowPrivateTargets: deps.allowPrivateTargets,
      ownPorts: deps.ownPorts,
      ...(deps.crawlOptions?.checkAddress ? { checkAddress: deps.crawlOptions.checkAddress } : {}),
    },
  );
  try {
    return await runWithVerifier(deps, job, ownDeadline, verifier);
  } finally {
    await verifier.close();
  }
}

async function runWithVerifier(
  deps: AnalysisJobDeps,
  job: AnalysisJob,
  ownDeadline: number,
  verifier: EngineVerifier,
): Promise<AnalysisJobResult> {
  const runDeadline = Math.min(job.deadline, ownDeadline);
  const run = { analysisId: job.analysisId, runToken: job.runToken };
  const log = deps.logger.child({ analysisId: job.analysisId });
  const key = checkpointKey(job.checkpointId);
  // The stored state is read back like any input: parsed by its schema, refused whole if it does not fit.
  const stored = job.resume ? await deps.blobs.get(key) : null;
  const state: CrawlState | null = stored ? parseCrawlState(JSON.parse(stored.toString('utf8'))) : null;
  const request = job.crawlRequest;
  let lost = false;
  const result = await runCrawl({ ...request, analysisId: job.analysisId }, state, {
    ...deps.crawlOptions,
    deadline: runDeadline - FINISH_RESERVE_MS,
    allowPrivateTargets: deps.allowPrivateTargets,
    ownPorts: deps.ownPorts,
    blobStore: deps.blobs,
    checkpointKey: key,
    onProgress: async (p) => {
      const held = await deps.writer.progress(run, {
        stage: p.phase,
        progress: p.progress,
        currentPage: p.currentPage?.slice(0, WRITER_LIMITS.urlChars) ?? null,
        totalPages: p.totalPages,
      });
      if (!held) lost = true;
    },
  });
  if (lost) {
    log.warn('the writer refused this run (another run took the analysis over); it stops without writing');
    return { outcome: 'lost' };
  }

  if (!result.done) {
    await deps.blobs.put(key, JSON.stringify(result.state), 'application/json');
    const delaySeconds = Math.min(900, Math.ceil((result.resumeAfterMs ?? 0) / 1000));
    log.info('crawl continues in a new run', { pagesDone: result.state.pagesDone, delaySeconds });
    return { outcome: 'continue', delaySeconds };
  }

  const crawled = result.state.pages.filter((p) => p.status < 400);
  if (crawled.length === 0) {
    const errors = result.state.errors;
    const first = firstCrawlError(errors);
    const headline = first ? `No page could be crawled: ${first}` : 'No page could be crawled.';
    const failed = await deps.writer.fail(run, cutErrors([headline, ...errors.filter((e) => e !== first)]));
    await deps.blobs.delete(key);
    return { outcome: failed ? 'finished' : 'lost' };
  }
  // The bands of the pages crawled, as the crawl's last report had them (its percent only goes up).
  const bands = stageBands(result.state.pages.length, {
    rerender: deps.crawlOptions?.rerender ?? true,
    crawlDelayMs: request.crawlDelay,
  });
  let percent = result.state.progress;
  const sender = latestProgressSender((report: ProgressReport) => deps.writer.progress(run, report));
  const progress = (stage: 'generating' | 'verifying', fraction: number) => {
    percent = Math.max(percent, stagePercent(bands, stage, fraction));
    sender.push({ stage, progress: percent, currentPage: null, totalPages: result.state.pages.length });
    return sender.flushed();
  };
  await progress('generating', 0);

  // Inline code whose hash changed on a second load cannot be allowed by hash (styles get
  // 'unsafe-inline', scripts a finding): mark it before generating.
  const marked = markUnstableInline(crawlArtifact(result.state), result.state.rerenders);
  const options = outcomeOptions(request, job.reportUri);
  let artifact: CrawlArtifact = marked.artifact;

  // A policy we hand out is one we have tried: a sample of the pages again, with it as report-only and the
  // same interaction; what it blocks is added once (same rules: hashes only when stable) and tried again.
  const pages = crawled.filter((p) => !p.incomplete).map((p) => p.finalUrl);
  const verifyDeadline = runDeadline - 15_000;
  const verify = (policy: string, from: number, to: number) =>
    verifier.verify({
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
      onProgress: (fraction) => void progress('verifying', from + (to - from) * fraction),
    });
  const firstPolicy = policyToVerify(artifact, options);
  await progress('verifying', 0);
  // Most analyses verify once: the first pass takes most of the band, a second (refined policy) the rest.
  const first = await verify(firstPolicy, 0, 0.8);
  let final = first;
  let refined = false;
  if (first.violations > 0 && Date.now() < verifyDeadline - 30_000) {
    artifact = markUnstableInline(
      refineArtifact(marked.artifact, first.pagesWithViolations),
      result.state.rerenders,
    ).artifact;
    final = await verify(policyToVerify(artifact, options), 0.8, 1);
    refined = true;
  }

  // The last figure is written before the result, not after it (where the writer would refuse it).
  await sender.flushed();
  const capture = summarizeCapture(result.state, marked.unstable);
  const outcome = analysisOutcome(
    { artifact, capture, errors: result.state.errors },
    { first, final, refined, engines: verifier.engines() },
    options,
  );
  const completed = await deps.writer.complete(run, {
    cspRules: outcome.rules,
    strictCspRules: outcome.strictRules,
    findings: outcome.findings,
    strictFindings: outcome.strictFindings,
    resourceStats: outcome.stats,
    errors: cutErrors(outcome.errors),
    totalPages: result.state.pages.length,
    verification: outcome.verification,
    capture,
    // What enforcing Trusted Types would block on the pages crawled (the capture policy's dry run).
    trustedTypes: dryRunOf(result.state.trustedTypes),
    budget: outcome.budget,
    needsAttention: outcome.needsAttention,
    // What the crawl saw, for judging a domain's violation reports later (the writer keeps it for those).
    // Every URL tried, with its status and what it loaded (as crawled, before the verification's additions).
    crawledPages: summarizeCrawledPages(result.state.pages, result.state.failures),
    knowledge: packKnowledge(crawlKnowledge(job.analysisId, artifact)).toString('base64'),
    // What the watch compares the next run with: the scripts with their digests, the served headers.
    watch: packSnapshot(
      runSnapshotOf({
        analysisId: job.analysisId,
        completedAt: new Date().toISOString(),
        siteOrigins: [result.state.origin],
        policy: outcome.rules,
        pages: result.state.watch,
      }),
    ).toString('base64'),
    // The integrity attributes to add where Subresource Integrity is safe, and why not elsewhere.
    subresourceIntegrity: integrityProposal(result.state.watch, result.state.origin),
  });
  if (!completed) {
    log.warn('the writer refused the result (another run took the analysis over)');
    return { outcome: 'lost' };
  }
  await deps.blobs.delete(key);
  log.info('analysis completed', {
    pages: result.state.pages.length,
    firstPassViolations: first.violations,
    violations: final.violations,
  });
  return { outcome: 'finished' };
}
