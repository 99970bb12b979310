// GET /api/csp/analyze/:id/integrity: the analysis' Subresource Integrity proposal as a download, the
// `<script src integrity crossorigin>` and `<link rel=stylesheet …>` tags per page template (pages that load
// the same external files), with the reason beside each file SRI is not safe for (shared/src/integrity/).
// Read like the analysis itself: its owner, the owner's team for a domain's analysis, a read token; anyone
// else gets a 404. The file is HTML: sent as an attachment, and under the product's own strict policy (no
// script runs from it) if a browser opened it anyway.
import { integrityListing } from '@csp/shared/integrity/tags';
import { Hono } from 'hono';
import { AppError } from '../../errors';
import type { ApiEnv } from '../deps';
import { requireUser } from '../middleware/session';
import { seenAnalysis } from './analyses';

/** The download's file name: the site's host and the analysis (both cut to safe characters). */
function integrityFilename(url: string, id: string): string {
  let host = 'site';
  try {
    host = new URL(url).hostname;
  } catch {}
  const safe = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 80);
  return `integrity-${safe(host)}-${safe(id)}.html`;
}

export const analysisIntegrityRoutes = new Hono<ApiEnv>().get('/:id/integrity', requireUser, async (c) => {
  const analysis = await seenAnalysis(c, c.req.param('id'));
  const proposal = analysis.subresourceIntegrity;
  if (analysis.status !== 'completed' || !proposal) {
    throw new AppError(
      409,
      analysis.status === 'completed'
        ? 'This analysis was made before integrity proposals: run it again for one'
        : 'The integrity proposal comes with the completed analysis',
    );
  }
  const body = integrityListing(proposal, {
    site: analysis.url,
    analysisId: analysis.id,
    completedAt: analysis.completedAt ?? null,
  });
  return c.body(body, 200, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Disposition': `attachment; filename="${integrityFilename(analysis.url, analysis.id)}"`,
    'Cache-Control': 'no-store',
  });
});
