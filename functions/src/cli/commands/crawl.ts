// `csp-generator crawl <url>`: the product's analysis on this machine (local-crawl.ts), printed in the
// format a server takes.
import { judgeRun } from '@csp/shared/analyses/outcome';
import type { CspRules } from '@csp/shared/csp/policy';
import { renderPolicy } from '@csp/shared/csp/serialize';
import { serverExport } from '@csp/shared/csp/server-export';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { httpUrl } from '@csp/shared/schemas/domain';
import { findFirefox } from '../../crawler/firefox';
import { type Command, intFlag, oneOf } from '../command';
import { EXIT, FailureError, UsageError } from '../exit-codes';
import { CLI_FORMATS, exportFormatOf } from '../formats';
import { runLocalCrawl } from '../local-crawl';

const { maxPages } = CRAWL_LIMITS;

export const crawlCommand: Command = {
  name: 'crawl',
  summary: "Crawl a site with the product's own crawler, generate its policy, verify it, print it.",
  synopsis: 'csp-generator crawl <url> [--max-pages N] [--format header|nginx|apache|iis|meta] [--strict]',
  details: `
Runs on this machine, with no server and no account: a headless Chromium visits the site (same-site links,
sitemaps, acting on each page), the generator writes the policy, and the policy is tried on a sample of the
pages (in Firefox too when it is installed) and refined once from what that showed. The policy goes to stdout
in the chosen format; progress, the verification and warnings go to stderr.

  --max-pages N     pages to crawl, ${maxPages.min}–${maxPages.max} (default ${maxPages.default})
  --format F        header (Content-Security-Policy: …), nginx, apache, iis, meta (default header)
  --strict          print the strict policy (nonce + 'strict-dynamic'); replace its nonce per response
  --allow-private   allow loopback and private addresses (off by default: the crawler refuses them, as in
                    production, by name, redirect and DNS rebinding)
  --chromium-only   verify in Chromium only (by default Firefox too, when installed)
  --timeout MIN     give up after this many minutes, 5–120 (default 30)

Exit 1 when the verified policy still saw violations (it is printed anyway, with what it blocked).`,
  flags: {
    'max-pages': { type: 'string' },
    format: { type: 'string' },
    strict: { type: 'boolean' },
    'allow-private': { type: 'boolean' },
    'chromium-only': { type: 'boolean' },
    timeout: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  async run({ values, positionals }, io) {
    const url = httpUrl('The URL must be an http(s) URL').safeParse(positionals[0]);
    if (!url.success) throw new UsageError(`${url.error.issues[0]?.message}: '${positionals[0]}'.`);
    const pages = values['max-pages']
      ? intFlag('max-pages', String(values['max-pages']), maxPages.min, maxPages.max)
      : maxPages.default;
    const format = oneOf('format', String(values.format ?? 'header'), CLI_FORMATS);
    const minutes = values.timeout ? intFlag('timeout', String(values.timeout), 5, 120) : 30;

    const progress = io.progress('crawl');
    const run = await runLocalCrawl({
      request: { url: url.data, maxPages: pages },
      allowPrivateTargets: Boolean(values['allow-private']),
      secondEngine: values['chromium-only']
        ? { unavailable: 'skipped with --chromium-only' }
        : findFirefox(io.env.FIREFOX_PATH),
      deadline: Date.now() + minutes * 60_000,
      onProgress: (r) =>
        progress.update(r.progress, r.stage ?? 'crawling', r.currentPage ?? `${r.totalPages} pages`),
    });
    if (!run.ok) {
      progress.done('failed');
      throw new FailureError(run.errors.join('\n'));
    }
    const result = run.result;
    const rules: CspRules = values.strict ? (result.strictCspRules ?? result.cspRules) : result.cspRules;
    const { audit, strictAudit } = judgeRun(
      {
        rules: result.cspRules,
        findings: result.findings,
        strictRules: result.strictCspRules,
        strictFindings: result.strictFindings,
      },
      result.verification,
      null,
    );
    const shownAudit = values.strict ? (strictAudit ?? audit) : audit;
    const exported = serverExport(exportFormatOf(format), rules, { reportOnly: false });
    const v = result.verification;
    const remaining = v.remaining ?? [];
    const engines = (v.engines ?? []).filter((e) => !e.unavailable).map((e) => e.engine);
    progress.done(
      `${result.totalPages} pages, grade ${shownAudit.grade}; verified on ${v.pagesChecked} pages${
        engines.length ? ` (${engines.join(', ')})` : ''
      }: ${v.violations === 0 ? 'no violations' : `${v.violations} violations left`}`,
    );
    for (const engine of v.engines ?? []) {
      if (engine.unavailable) io.err(`  ${engine.engine}: not used (${engine.unavailable})\n`);
    }
    for (const item of remaining.slice(0, 20)) {
      io.err(`  still blocked: ${item.directive} ${item.blocked} on ${item.page}\n`);
    }
    if (values.strict) {
      io.err(
        '  strict policy: verification tried the allowlist policy; give every <script> a fresh nonce.\n',
      );
    }
    for (const warning of exported.warnings) io.err(`  warning: ${warning}\n`);
    for (const error of result.errors) io.err(`  note: ${error}\n`);

    if (values.json) {
      const value = renderPolicy(rules).value;
      io.out(
        `${JSON.stringify(
          {
            url: url.data,
            pagesCrawled: result.totalPages,
            mode: values.strict ? 'strict' : 'allowlist',
            policy: value,
            rules,
            grade: shownAudit.grade,
            score: shownAudit.score,
            format,
            filename: exported.filename,
            content: exported.content,
            warnings: exported.warnings,
            verification: v,
            errors: result.errors,
          },
          null,
          2,
        )}\n`,
      );
    } else {
      io.out(exported.content);
    }
    return v.violations === 0 ? EXIT.ok : EXIT.found;
  },
};
