// The crawl writer: the only way a crawler run changes the table. The crawler function has no table access at
// all (it renders hostile pages: assume whoever controls a page controls the process and its credentials);
// it asks this writer, which checks the run's token against the analysis' current run (a conditional update:
// the stored run id is the token's digest), validates and bounds every field, and takes the owner, the domain
// and the achievement counters from the analysis item, never from the request. In AWS it is a Lambda of its
// own that only the crawler may invoke; locally the same code runs in-process behind the same interface.
import { judgeRun } from '@csp/shared/analyses/outcome';
import { withContentHistory } from '@csp/shared/integrity/proposal';
import { recordAchievementEvent } from '../achievements/record';
import { errorFields, type Logger } from '../logger';
import { getAnalysis } from '../store/analyses';
import { completeAnalysis, failAnalysis, setIntegrityProposal, updateProgress } from '../store/analysis-runs';
import { putCrawledPages } from '../store/crawled-pages';
import type { Db } from '../store/db';
import { putKnowledge, unpackKnowledge } from '../store/knowledge';
import { runTokenDigest } from '../store/run-token';
import { onAnalysisCompleted } from '../watch/on-completed';
import { unpackSnapshot } from '../watch/snapshot-pack';
import {
  type CompletedRun,
  type ProgressReport,
  WRITER_LIMITS,
  type WriterAnswer,
  type WriterRequest,
  writerAnswerSchema,
  writerRequestSchema,
} from './requests';

/** Which run is asking: the analysis and the token its coordinator handed over. */
export interface RunCredentials {
  analysisId: string;
  runToken: string;
}

/** What a crawler run may write. Each answers false when the token is not the analysis' current run's. */
export interface CrawlWriter {
  progress(run: RunCredentials, report: ProgressReport): Promise<boolean>;
  fail(run: RunCredentials, errors: string[]): Promise<boolean>;
  complete(run: RunCredentials, result: CompletedRun): Promise<boolean>;
}

/** Handles one request as it arrives (the Lambda's event): validated, bounded, then checked against the item. */
export async function handleWriterRequest(db: Db, logger: Logger, raw: unknown): Promise<WriterAnswer> {
  if ((JSON.stringify(raw ?? null) ?? '').length > WRITER_LIMITS.requestChars) {
    return { ok: false, message: 'The request is too large' };
  }
  const parsed = writerRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `Invalid request: ${issue?.path.join('.') || 'body'}: ${issue?.message}` };
  }
  const request = parsed.data;
  if (
    request.op === 'complete' &&
    JSON.stringify({ ...request.result, knowledge: null, crawledPages: null, watch: null }).length >
      WRITER_LIMITS.resultChars
  ) {
    return { ok: false, message: 'The result is too large for the analysis' };
  }
  const accepted = await write(db, logger, request);
  if (!accepted) {
    // A stale run (taken over, already finished) or a forged token: either way nothing was written.
    logger.warn('crawl writer refused a write', { op: request.op, analysisId: request.analysisId });
  }
  return { ok: true, accepted };
}

async function write(db: Db, logger: Logger, request: WriterRequest): Promise<boolean> {
  const runId = runTokenDigest(request.runToken);
  switch (request.op) {
    case 'progress':
      return updateProgress(db, request.analysisId, runId, request.report);
    case 'fail':
      return failAnalysis(db, request.analysisId, runId, request.errors);
    case 'complete':
      return complete(db, logger, request.analysisId, runId, request.result);
  }
}

async function complete(db: Db, logger: Logger, id: string, runId: string, result: CompletedRun) {
  // The owner and the domain come from the item; a token that is not its current run's stops here.
  const analysis = await getAnalysis(db, id, true);
  if (analysis?.status !== 'running' || analysis.runId !== runId) return false;
  // One audit per policy, made here from the policies themselves: the grade, the issues and the achievements
  // they earn are the writer's reading, not the crawler's word.
  const { audit, strictAudit, earned } = judgeRun(
    {
      rules: result.cspRules,
      findings: result.findings,
      strictRules: result.strictCspRules,
      strictFindings: result.strictFindings,
    },
    result.verification,
    analysis.reportUri ?? null,
  );
  const completed = await completeAnalysis(db, id, runId, {
    cspRules: result.cspRules,
    strictCspRules: result.strictCspRules,
    resourceStats: { ...result.resourceStats, securityIssues: audit.issues },
    errors: result.errors,
    totalPages: result.totalPages,
    verification: result.verification,
    findings: result.findings,
    audit,
    strictAudit,
    capture: result.capture,
    trustedTypes: result.trustedTypes ?? null,
    budget: result.budget,
    needsAttention: result.needsAttention,
    subresourceIntegrity: result.subresourceIntegrity ?? null,
  });
  if (!completed) return false;
  const log = logger.child({ analysisId: id });
  if (result.crawledPages) await putCrawledPages(db, id, result.crawledPages);
  await recordAchievementEvent(db, log, analysis.userId, {
    add: earned,
  });
  // What the crawl saw, for judging the domain's violation reports later (suggestions): under this
  // analysis' own key, whatever the packed knowledge says.
  if (analysis.domainId && result.knowledge) {
    const knowledge = unpackKnowledge(Buffer.from(result.knowledge, 'base64'));
    if (knowledge) await putKnowledge(db, { ...knowledge, analysisId: id });
    else log.warn('crawl knowledge refused: not a valid packed knowledge');
  }
  if (analysis.domainId && result.watch) {
    const snapshot = unpackSnapshot(Buffer.from(result.watch, 'base64'));
    if (!snapshot) log.warn('watch snapshot refused: not a valid packed snapshot');
    else {
      // The analysis is completed whatever happens here: a failure is logged, not retried with the crawl
      // (a redelivered crawl finds the analysis completed and writes nothing).
      const entries = await onAnalysisCompleted(db, log, analysis, snapshot).catch((error: unknown) => {
        log.error('watch step after the analysis failed', errorFields(error));
        return null;
      });
      // A script whose content differed in an earlier run is no immutable file: its proposal is taken back.
      const proposal = result.subresourceIntegrity;
      const checked = proposal && entries ? withContentHistory(proposal, entries) : proposal;
      if (checked && checked !== proposal) await setIntegrityProposal(db, id, runId, checked);
    }
  }
  return true;
}

/** A CrawlWriter over a transport that delivers a request to handleWriterRequest and brings back its answer. */
export function crawlWriterOver(send: (request: WriterRequest) => Promise<unknown>): CrawlWriter {
  const call = async (request: WriterRequest) => {
    const answer = writerAnswerSchema.parse(await send(request));
    if (!answer.ok) throw new Error(`The crawl writer refused the request: ${answer.message}`);
    return answer.accepted;
  };
  return {
    progress: (run, report) => call({ op: 'progress', ...run, report }),
    fail: (run, errors) => call({ op: 'fail', ...run, errors }),
    complete: (run, result) => call({ op: 'complete', ...run, result }),
  };
}

/** The writer in-process (`npm start`, tests): the request goes through JSON, as it does to the Lambda. */
export function inProcessCrawlWriter(db: Db, logger: Logger): CrawlWriter {
  return crawlWriterOver((request) => handleWriterRequest(db, logger, JSON.parse(JSON.stringify(request))));
}
