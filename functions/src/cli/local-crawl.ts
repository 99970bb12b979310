// The product's own analysis run on this machine, with no server and no account: the crawler, the
// generator and the self-verification of run-analysis.ts, exactly as an analysis runs them, with the crawl
// writer replaced by one that keeps the result in memory (there is no table) and checkpoints in a
// temporary folder that is removed afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CrawlRequest, crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { LocalBlobStore } from '../blobs/local-blob-store';
import type { CompletedRun, ProgressReport } from '../crawl-writer/requests';
import type { CrawlWriter } from '../crawl-writer/writer';
import type { SecondEngine } from '../crawler/firefox';
import { FINISH_RESERVE_MS, runAnalysisJob } from '../crawler/run-analysis';
import { createLogger } from '../logger';
import { newCheckpointId, newRunToken } from '../store/run-token';

export interface LocalCrawlOptions {
  request: Pick<CrawlRequest, 'url' | 'maxPages'>;
  allowPrivateTargets: boolean;
  secondEngine: SecondEngine;
  /** Epoch ms by which the whole run must have finished. */
  deadline: number;
  onProgress(report: ProgressReport): void;
}

export type LocalCrawlResult = { ok: true; result: CompletedRun } | { ok: false; errors: string[] };

export async function runLocalCrawl(options: LocalCrawlOptions): Promise<LocalCrawlResult> {
  const kept: { outcome?: LocalCrawlResult } = {};
  const writer: CrawlWriter = {
    progress: async (_run, report) => {
      options.onProgress(report);
      return true;
    },
    fail: async (_run, errors) => {
      kept.outcome = { ok: false, errors };
      return true;
    },
    complete: async (_run, result) => {
      kept.outcome = { ok: true, result };
      return true;
    },
  };
  const folder = await mkdtemp(join(tmpdir(), 'csp-generator-cli-'));
  try {
    const job = {
      analysisId: 'cli',
      runToken: newRunToken(),
      crawlRequest: crawlRequestSchema.parse(options.request),
      reportUri: null,
      checkpointId: newCheckpointId(),
      resume: false,
      deadline: options.deadline,
    };
    const deps = {
      writer,
      blobs: new LocalBlobStore(folder),
      logger: createLogger('silent'),
      allowPrivateTargets: options.allowPrivateTargets,
      secondEngine: options.secondEngine,
    };
    // A run stops early (state checkpointed) before a crawl delay longer than its time left, or when the
    // time is up: go on from the checkpoint while the time limit allows.
    for (;;) {
      const answer = await runAnalysisJob(deps, job);
      if (answer.outcome !== 'continue') break;
      if (Date.now() + answer.delaySeconds * 1000 + FINISH_RESERVE_MS >= options.deadline) {
        return { ok: false, errors: ['The crawl did not finish within the time limit (--timeout).'] };
      }
      await new Promise((resolve) => setTimeout(resolve, answer.delaySeconds * 1000));
      job.resume = true;
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return kept.outcome ?? { ok: false, errors: ['The crawl ended without a result.'] };
}
