// Analyses in every state, written straight into the store (the crawler is not part of the web tests):
// pending and running ones for the progress screens, completed ones with realistic allowlist and strict
// policies, resource stats and self-verification, and failed ones.
import { createHash } from 'node:crypto';
import {
  type AnalysisRecord,
  claimAnalysis,
  completeAnalysis,
  createAnalysis,
  failAnalysis,
  updateProgress,
} from '@csp/functions/src/store/analyses';
import type { Db } from '@csp/functions/src/store/db';
import { recordScanStarted } from '@csp/functions/src/store/domains';
import { type Analysis, type CspRules, crawlRequestSchema } from '@csp/shared/schemas/analysis';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** An allowlist policy as the generator writes one for a marketing site with analytics, payments and video. */
export const ALLOWLIST_RULES: CspRules = {
  'default-src': ["'none'"],
  'script-src': [
    "'self'",
    sha256('window.dataLayer = window.dataLayer || [];'),
    'https://js.stripe.com',
    'https://www.googletagmanager.com',
  ],
  'script-src-attr': ["'unsafe-hashes'", sha256("track('signup')")],
  'style-src': ["'self'", sha256('.hero{min-height:60vh}'), 'https://fonts.googleapis.com'],
  'img-src': ["'self'", 'data:', 'https://images.example-cdn.net', 'https://www.google-analytics.com'],
  'font-src': ["'self'", 'https://fonts.gstatic.com'],
  'connect-src': [
    "'self'",
    'https://api.example.com',
    'https://www.google-analytics.com',
    'wss://realtime.example.com',
  ],
  'frame-src': ['https://js.stripe.com', 'https://www.youtube-nocookie.com'],
  'worker-src': ["'self'", 'blob:'],
  'manifest-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'upgrade-insecure-requests': [],
};

/** The strict variant: nonce + 'strict-dynamic' + hashes, with the fallback CSP3 browsers ignore. */
export const STRICT_RULES: CspRules = {
  ...ALLOWLIST_RULES,
  'script-src': [
    "'nonce-REPLACE-WITH-A-FRESH-NONCE-PER-RESPONSE'",
    "'strict-dynamic'",
    sha256('window.dataLayer = window.dataLayer || [];'),
    "'unsafe-inline'",
    'https:',
  ],
  'base-uri': ["'none'"],
};

export const RESOURCE_STATS = { totalResources: 184, uniqueDomains: 9, securityIssues: 0 };

export const PAGE_ERRORS = [
  'https://www.example.com/old-pricing: 404 Not Found',
  'https://www.example.com/careers: navigation timed out after 30 s',
];

interface Target {
  userId: string;
  domainId: string | null;
  url: string;
}

async function create(db: Db, t: Target, request: Record<string, unknown> = {}): Promise<AnalysisRecord> {
  const analysis = await createAnalysis(db, {
    userId: t.userId,
    domainId: t.domainId,
    url: t.url,
    crawlRequest: crawlRequestSchema.parse({ url: t.url, ...request }),
  });
  if (t.domainId) await recordScanStarted(db, t.domainId);
  return analysis;
}

const HOUR = 60 * 60 * 1000;

export async function seedPending(db: Db, t: Target): Promise<string> {
  return (await create(db, t)).id;
}

export async function seedRunning(
  db: Db,
  t: Target,
  p: { progress: number; currentPage: string; totalPages: number },
): Promise<string> {
  const { id } = await create(db, t);
  const runId = `run-${id}`;
  if (!(await claimAnalysis(db, id, runId, HOUR))) throw new Error('could not claim the analysis');
  await updateProgress(db, id, runId, p);
  return id;
}

export async function seedCompleted(
  db: Db,
  t: Target,
  r: {
    cspRules?: CspRules;
    strictCspRules?: CspRules | null;
    resourceStats?: Analysis['resourceStats'];
    errors?: string[];
    totalPages?: number;
    verification?: Analysis['verification'];
  } = {},
): Promise<string> {
  const { id } = await create(db, t);
  const runId = `run-${id}`;
  if (!(await claimAnalysis(db, id, runId, HOUR))) throw new Error('could not claim the analysis');
  const done = await completeAnalysis(db, id, runId, {
    cspRules: r.cspRules ?? ALLOWLIST_RULES,
    strictCspRules: r.strictCspRules === undefined ? STRICT_RULES : r.strictCspRules,
    resourceStats: r.resourceStats ?? RESOURCE_STATS,
    errors: r.errors ?? PAGE_ERRORS,
    totalPages: r.totalPages ?? 42,
    verification:
      r.verification === undefined ? { pagesChecked: 12, violations: 0, samples: [] } : r.verification,
  });
  if (!done) throw new Error('could not complete the analysis');
  return id;
}

export async function seedFailed(db: Db, t: Target, errors: string[]): Promise<string> {
  const { id } = await create(db, t);
  const runId = `run-${id}`;
  if (!(await claimAnalysis(db, id, runId, HOUR))) throw new Error('could not claim the analysis');
  await failAnalysis(db, id, runId, errors);
  return id;
}
