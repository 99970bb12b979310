// The crawl queue's handler in `npm start` and the tests: coordinator, crawler and crawl writer in one process,
// split as in AWS — the coordinator (coordinator.ts) hands each job to the crawler code (run-analysis.ts)
// in-process, and the crawler writes through the real crawl writer in-process, on the same interfaces (and
// through the same JSON and schemas) as the Lambdas.
import { type CrawlWriter, inProcessCrawlWriter } from '../crawl-writer/writer';
import type { Db } from '../store/db';
import { type CoordinatorHandlerDeps, createCoordinatorHandler } from './coordinator';
import { type AnalysisJob, analysisJobResultSchema, analysisJobSchema } from './job';
import { type AnalysisJobDeps, runAnalysisJob } from './run-analysis';

export interface CrawlHandlerDeps
  extends Omit<CoordinatorHandlerDeps, 'runJob' | 'reserveMs'>,
    Omit<AnalysisJobDeps, 'writer'> {
  /** The coordinator's table. */
  db: Db;
  /** The crawler's writer. Default: the real writer in-process, on `db`. */
  writer?: CrawlWriter;
}

/** Coordinator, crawler and writer in one process (`npm start`, tests). */
export function createCrawlHandler(deps: CrawlHandlerDeps) {
  const writer = deps.writer ?? inProcessCrawlWriter(deps.db, deps.logger);
  // The job and the answer go through JSON and their schemas, as they do between the Lambdas.
  const runJob = async (job: AnalysisJob) =>
    analysisJobResultSchema.parse(
      await runAnalysisJob({ ...deps, writer }, analysisJobSchema.parse(JSON.parse(JSON.stringify(job)))),
    );
  return createCoordinatorHandler({ ...deps, runJob });
}
