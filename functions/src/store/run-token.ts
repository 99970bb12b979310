// A crawl run's token: the one capability a crawler run holds. The coordinator makes a fresh one each time it
// claims an analysis for a run and stores only its digest, as the run id of the analysis' lease; the writer
// accepts a write for an analysis only with the token whose digest is its current run id. So a token works
// for one analysis, for one run, and stops working when that run ends (continued, queued, completed, failed
// or taken over). The checkpoint id names the analysis' crawl state in the blob store: random, so that a
// crawler, which may not list the bucket, cannot find another analysis' state.
import { createHash, randomBytes } from 'node:crypto';
import * as z from 'zod';

/** 32 random bytes, base64url: 43 characters. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const newSecret = () => randomBytes(32).toString('base64url');

export const runTokenSchema = z.string().regex(SECRET_PATTERN, 'Invalid run token');
export const checkpointIdSchema = z.string().regex(SECRET_PATTERN, 'Invalid checkpoint id');

export const newRunToken = newSecret;
export const newCheckpointId = newSecret;

/** What the analysis item keeps as its run id: the token's SHA-256, so reading the table yields no token. */
export const runTokenDigest = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');
