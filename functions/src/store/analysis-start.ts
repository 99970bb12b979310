// Starting an analysis of a domain while another holds the domain: the start is refused only when that one
// really waits or runs. A guard left by an analysis that finished, was deleted or was lost (stale: its run
// died) is freed here and the start tried once more, so a domain can never stay refusing.
import { AppError } from '../errors';
import { type AnalysisRecord, createAnalysis, getAnalysis } from './analyses';
import { failStale, isStale } from './analysis-runs';
import type { Db } from './db';
import { releaseDomainRun } from './domain-run-guard';

type StartInput = Parameters<typeof createAnalysis>[1];

export async function startAnalysis(db: Db, input: StartInput): Promise<AnalysisRecord> {
  try {
    return await createAnalysis(db, input);
  } catch (err) {
    const holderId = busyHolder(err);
    if (!holderId || !input.domainId) throw err;
    const holder = await getAnalysis(db, holderId, true);
    if (holder && isStale(holder)) {
      // Failing it ends it as every end does: its guard goes with its quota.
      await failStale(db, [holder]);
    } else if (holder && (holder.status === 'pending' || holder.status === 'running')) {
      throw err;
    }
    await releaseDomainRun(db, input.domainId, holderId);
    return createAnalysis(db, input);
  }
}

/** The analysis named by a refusal for a busy domain, or null for any other error. */
function busyHolder(err: unknown): string | null {
  if (!(err instanceof AppError) || err.status !== 409) return null;
  const id = err.extra.analysisId;
  return typeof id === 'string' ? id : null;
}
