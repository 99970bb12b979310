// Analyses in every state, written straight into the store (the crawler is not part of the web tests):
// pending, queued and running ones (with the crawler's stage) for the progress screens, completed ones with
// realistic allowlist and strict policies, resource stats, self-verification, findings, crawl coverage and
// the header budget, and failed ones.
import { createHash } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type AnalysisRecord, createAnalysis } from '@csp/functions/src/store/analyses';
import {
  claimAnalysis,
  completeAnalysis,
  failAnalysis,
  updateProgress,
} from '@csp/functions/src/store/analysis-runs';
import type { Db } from '@csp/functions/src/store/db';
import { releaseDomainRun } from '@csp/functions/src/store/domain-run-guard';
import { recordScanStarted } from '@csp/functions/src/store/domains';
import { analysisKey } from '@csp/functions/src/store/keys';
import type { PolicyFinding } from '@csp/shared/csp/finding';
import type { CspRules, PolicyBudget } from '@csp/shared/csp/policy';
import {
  type Analysis,
  type AnalysisStage,
  type CaptureSummary,
  crawlRequestSchema,
} from '@csp/shared/schemas/analysis';

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

/** Findings as the generator and CSP Evaluator write them, budget trades among them (unsorted on purpose). */
export const FINDINGS: PolicyFinding[] = [
  {
    severity: 'info',
    directive: 'frame-ancestors',
    code: 'frame-ancestors-self',
    value: "'self'",
    description:
      "frame-ancestors 'self' stops other sites from framing your pages (clickjacking). If partners embed your pages, add their origins.",
    checker: 'generator',
  },
  {
    severity: 'high',
    directive: 'style-src-attr',
    code: 'budget-unsafe-inline',
    value: "'unsafe-inline'",
    description:
      "To fit the 4,096-byte header budget, 212 style= attribute hashes were replaced by 'unsafe-inline'.",
    checker: 'generator',
  },
  {
    severity: 'medium',
    directive: 'img-src',
    code: 'budget-host-wildcard',
    value: 'https://*.example-cdn.net',
    description:
      'To fit the header budget, 14 image hosts under example-cdn.net were merged into one wildcard source.',
    checker: 'generator',
  },
  {
    severity: 'low',
    directive: 'script-src-attr',
    code: 'unsafe-hashes',
    value: "'unsafe-hashes'",
    description:
      "1 inline event handler(s) or javascript: URL(s) are allowed by hash with 'unsafe-hashes' (not 'unsafe-inline'). Moving them to addEventListener removes the need.",
    checker: 'generator',
  },
];

/** A crawl whose capture did not finish everywhere, with interaction, answered writes and unstable code. */
export const CAPTURE: CaptureSummary = {
  pagesCaptured: 42,
  pagesIncomplete: 2,
  incomplete: [
    { url: 'https://www.example.com/careers', reason: 'navigation timed out after 30 s (retried once)' },
    { url: 'https://www.example.com/account/billing', reason: 'the tab crashed while acting on the page' },
  ],
  interactionObservations: 7,
  interactionSamples: [
    { directive: 'frame-src', value: 'https://www.youtube-nocookie.com', page: 'https://www.example.com/' },
    {
      directive: 'script-src-elem',
      value: 'https://js.stripe.com/v3/',
      page: 'https://www.example.com/pricing',
    },
    {
      directive: 'connect-src',
      value: 'https://api.example.com/search?q=',
      page: 'https://www.example.com/docs',
    },
  ],
  writesAnswered: 3,
  navigationsBlocked: 1,
  pagesRerendered: 6,
  unstableInline: [
    {
      directive: 'script-src-elem',
      page: 'https://www.example.com/',
      sample: 'window.__CSRF__ = "9f2c1e7a4b"; window.__BUILD__ = 1718',
      pages: 4,
    },
    {
      directive: 'style-src-attr',
      page: 'https://www.example.com/pricing',
      sample: 'transform: translateX(-37.5px)',
      pages: 1,
    },
  ],
  interactionMs: 48_200,
  rerenderMs: 21_900,
};

/** Verification of a refined policy that still blocks two things. */
export const REMAINING_VERIFICATION: NonNullable<Analysis['verification']> = {
  pagesChecked: 10,
  violations: 2,
  samples: [],
  firstPassViolations: 5,
  refined: true,
  remaining: [
    {
      directive: 'script-src-elem',
      blocked: 'https://cdn.example.net/widget.js',
      page: 'https://www.example.com/support',
    },
    {
      directive: 'style-src-attr',
      blocked: 'inline',
      page: 'https://www.example.com/pricing?plan=team',
      sample: 'transform: translateX(-12px)',
    },
  ],
};

export const HEADER_BUDGET: PolicyBudget = { target: 'header', limit: 4096, length: 3912, fits: true };

/** Writes fields straight onto an analysis item (those the store functions do not take). */
async function setFields(db: Db, id: string, fields: Record<string, unknown>): Promise<void> {
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return;
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: analysisKey(id),
      UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
    }),
  );
}

/** Removes fields from an analysis item: an analysis as it was stored before they existed. */
async function removeFields(db: Db, id: string, names: string[]): Promise<void> {
  await db.doc.send(
    new UpdateCommand({
      TableName: db.table,
      Key: analysisKey(id),
      UpdateExpression: `REMOVE ${names.map((_, i) => `#f${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((k, i) => [`#f${i}`, k])),
    }),
  );
}

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
  if (t.domainId) {
    await recordScanStarted(db, t.domainId);
    // Seeds set each state directly, several per domain (histories of any age): the domain stays free.
    await releaseDomainRun(db, t.domainId, analysis.id);
  }
  return analysis;
}

const HOUR = 60 * 60 * 1000;

export async function seedPending(db: Db, t: Target): Promise<string> {
  return (await create(db, t)).id;
}

/** Pending, waiting for one of the user's slots (the crawler gave it back with stage 'queued'). */
export async function seedQueued(db: Db, t: Target): Promise<string> {
  const { id } = await create(db, t);
  await setFields(db, id, { stage: 'queued' });
  return id;
}

export async function seedRunning(
  db: Db,
  t: Target,
  p: { progress: number; currentPage: string | null; totalPages: number; stage?: AnalysisStage },
): Promise<string> {
  const { id } = await create(db, t);
  const runId = `run-${id}`;
  if (!(await claimAnalysis(db, id, runId, HOUR))) throw new Error('could not claim the analysis');
  const { stage, ...progress } = p;
  await updateProgress(db, id, runId, progress);
  await setFields(db, id, { stage });
  return id;
}

/** Changes what a running analysis reports, as the crawler's next progress update would. */
export async function reportProgress(
  db: Db,
  id: string,
  p: { progress?: number; currentPage?: string | null; totalPages?: number; stage?: AnalysisStage },
): Promise<void> {
  await setFields(db, id, p);
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
    findings?: PolicyFinding[];
    capture?: CaptureSummary;
    budget?: PolicyBudget;
    needsAttention?: boolean;
    trustedTypes?: Analysis['trustedTypes'];
    /** Stored as before findings, coverage, budget and stages existed. */
    legacy?: boolean;
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
  if (r.legacy) {
    await removeFields(db, id, ['findings', 'capture', 'budget', 'needsAttention', 'stage']);
    return id;
  }
  await setFields(db, id, {
    findings: r.findings,
    capture: r.capture,
    budget: r.budget,
    needsAttention: r.needsAttention,
    trustedTypes: r.trustedTypes,
  });
  return id;
}

export async function seedFailed(db: Db, t: Target, errors: string[]): Promise<string> {
  const { id } = await create(db, t);
  const runId = `run-${id}`;
  if (!(await claimAnalysis(db, id, runId, HOUR))) throw new Error('could not claim the analysis');
  await failAnalysis(db, id, runId, errors);
  return id;
}
