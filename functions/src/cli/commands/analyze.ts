// `csp-generator analyze --domain <id>`: an analysis of a saved domain, run by the product (through the API
// with a token), followed to its end with a progress bar, failing the step when the verified policy still
// saw violations.
import { serializePolicy } from '@csp/shared/csp/serialize';
import type { Analysis } from '@csp/shared/schemas/analysis';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { API_TOKEN_ENV, API_URL_ENV, apiClientFrom } from '../api-client';
import { type Command, intFlag } from '../command';
import { EXIT, FailureError, UsageError } from '../exit-codes';

const { maxPages } = CRAWL_LIMITS;
/** 30 polls a minute: a quarter of a token's rate limit (API_TOKEN_PER_MINUTE, 120 by default). */
const POLL_MS = 2000;

export const analyzeCommand: Command = {
  name: 'analyze',
  summary: 'Run an analysis of a saved domain through the API, follow it, fail on violations.',
  synopsis: 'csp-generator analyze --domain <id> [--max-pages N] [--timeout MIN]',
  details: `
Starts an analysis of the domain (its own URL is crawled) with ${API_URL_ENV} and ${API_TOKEN_ENV} (scopes
'analyses:write' and 'read'), polls it until it ends, and prints its policy (Content-Security-Policy: …) on
stdout and its grade and verification on stderr. Run it before a release.

  --domain ID       the domain's id (the address of its page in the product: /domains/ID)
  --max-pages N     pages to crawl, ${maxPages.min}–${maxPages.max} (default: the product's, ${maxPages.default})
  --timeout MIN     stop waiting after this many minutes, 1–120 (default 30); the analysis goes on

Exit 1 when verification still saw violations with the policy handed out; 3 when the analysis failed.`,
  flags: {
    domain: { type: 'string' },
    'max-pages': { type: 'string' },
    timeout: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  async run({ values }, io) {
    const domainId = values.domain === undefined ? '' : String(values.domain);
    if (!domainId) throw new UsageError('--domain <id> is required.');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(domainId)) throw new UsageError(`'${domainId}' is not a domain id.`);
    const crawlRequest = values['max-pages']
      ? { maxPages: intFlag('max-pages', String(values['max-pages']), maxPages.min, maxPages.max) }
      : {};
    const minutes = values.timeout ? intFlag('timeout', String(values.timeout), 1, 120) : 30;
    const api = apiClientFrom(io);

    const started = await api.json<Analysis>('POST', '/api/csp-analyses', { domainId, crawlRequest });
    const progress = io.progress('analyze');
    progress.note(`Analysis ${started.id} of ${started.url} started.`);
    const deadline = Date.now() + minutes * 60_000;
    let analysis = started;
    while (analysis.status === 'pending' || analysis.status === 'running') {
      if (Date.now() > deadline) {
        progress.done('still running');
        throw new FailureError(`Analysis ${analysis.id} did not finish within ${minutes} minutes.`);
      }
      const stage = analysis.status === 'pending' ? 'queued' : (analysis.stage ?? 'crawling');
      const where = analysis.queuePosition
        ? `#${analysis.queuePosition} in line`
        : (analysis.currentPage ?? '');
      progress.update(analysis.progress, stage, where);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      analysis = (await api.json<{ analysis: Analysis }>('GET', `/api/csp/analyze/${analysis.id}`)).analysis;
    }

    if (analysis.status === 'failed' || !analysis.cspRules) {
      progress.done('failed');
      if (values.json) io.out(`${JSON.stringify(analysis, null, 2)}\n`);
      throw new FailureError(
        `Analysis ${analysis.id} failed: ${analysis.errors.join('; ') || 'no reason given'}`,
      );
    }
    const v = analysis.verification;
    const violations = v?.violations ?? 0;
    progress.done(
      `${analysis.totalPages} pages, grade ${analysis.audit?.grade ?? '?'}; verified on ${v?.pagesChecked ?? 0} pages: ${
        violations === 0 ? 'no violations' : `${violations} violations left`
      }`,
    );
    for (const item of (v?.remaining ?? []).slice(0, 20)) {
      io.err(`  still blocked: ${item.directive} ${item.blocked} on ${item.page}\n`);
    }
    if (values.json) io.out(`${JSON.stringify(analysis, null, 2)}\n`);
    else io.out(`Content-Security-Policy: ${serializePolicy(analysis.cspRules)}\n`);
    return violations === 0 ? EXIT.ok : EXIT.found;
  },
};
