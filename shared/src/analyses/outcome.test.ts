import { describe, expect, it } from 'vitest';
import { artifactOfPages } from '../csp/artifact-factory';
import { auditPolicy } from '../csp/audit';
import { generatePolicy } from '../csp/generate';
import { REPORTING_GROUP, serializePolicy } from '../csp/serialize';
import type { CaptureSummary } from '../schemas/analysis';
import {
  analysisOutcome,
  type GatheredCrawl,
  judgeRun,
  type OutcomeOptions,
  outcomeOptions,
  policyToVerify,
  type VerificationPass,
} from './outcome';

const SITE = 'https://site.example';
const H1 = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const artifact = artifactOfPages(SITE, {
  '/': [
    { type: 'url', directive: 'script-src-elem', url: 'https://cdn.example/app.js', page: '' },
    { type: 'url', directive: 'img-src', url: `${SITE}/logo.png`, page: '' },
    { type: 'inline', directive: 'style-src-elem', hash: H1, page: '' },
  ],
  '/about': [{ type: 'url', directive: 'script-src-elem', url: 'https://cdn.example/app.js', page: '' }],
});

const capture = (incomplete: { url: string; reason: string }[] = []): CaptureSummary => ({
  pagesCaptured: 2,
  pagesIncomplete: incomplete.length,
  incomplete,
  interactionObservations: 0,
  interactionSamples: [],
  writesAnswered: 0,
  navigationsBlocked: 0,
  pagesRerendered: 0,
  unstableInline: [],
  interactionMs: 0,
  rerenderMs: 0,
});

const crawl = (over: Partial<GatheredCrawl> = {}): GatheredCrawl => ({
  artifact,
  capture: capture(),
  errors: ['Sitemap https://site.example/sitemap.xml: not found'],
  ...over,
});

const clean: VerificationPass = { pagesChecked: 2, violations: 0, samples: [], blocked: [], unchecked: [] };
const blocking: VerificationPass = {
  pagesChecked: 2,
  violations: 2,
  samples: ['script-src-elem https://ads.example/a.js on https://site.example/', 'img-src data on /about'],
  blocked: [
    { directive: 'script-src-elem', blocked: 'https://ads.example/a.js', page: `${SITE}/` },
    { directive: 'img-src', blocked: 'data', page: `${SITE}/about` },
  ],
  unchecked: [],
};

const options: OutcomeOptions = outcomeOptions({}, null);

describe('outcomeOptions', () => {
  it('defaults to a header under the nginx buffer and reports only for a domain', () => {
    expect(options).toEqual({ budget: { target: 'header', limit: 4096 }, reporting: {} });
    expect(outcomeOptions({ policyTarget: 'cloudfront', headerBudget: 2000 }, '/api/reports/d1')).toEqual({
      budget: { target: 'cloudfront', limit: 2000 },
      reporting: { reportUri: '/api/reports/d1', reportTo: REPORTING_GROUP },
    });
  });
});

describe('policyToVerify', () => {
  it('is the allowlist policy without its reporting directives', () => {
    const reporting = outcomeOptions({}, '/api/reports/d1');
    const generated = generatePolicy(artifact, {
      mode: 'allowlist',
      budget: reporting.budget,
      ...reporting.reporting,
    });
    expect(generated.rules['report-uri']).toEqual(['/api/reports/d1']);
    const header = policyToVerify(artifact, reporting);
    expect(header).not.toContain('report-uri');
    expect(header).not.toContain('report-to');
    expect(header).toContain('https://cdn.example');
    expect(header).toBe(policyToVerify(artifact, options));
  });
});

describe('analysisOutcome', () => {
  it('a verified crawl: both policies, their audits and figures, nothing that needs attention', () => {
    const outcome = analysisOutcome(crawl(), { first: clean, final: clean, refined: false }, options);
    const allowlist = generatePolicy(artifact, { mode: 'allowlist', budget: options.budget });
    const strict = generatePolicy(artifact, { mode: 'strict', budget: options.budget });
    expect(outcome.rules).toEqual(allowlist.rules);
    expect(outcome.strictRules).toEqual(strict.rules);
    expect(outcome.findings).toEqual(allowlist.findings);
    expect(outcome.strictFindings).toEqual(strict.findings);
    expect(outcome.budget).toEqual(allowlist.budget);
    expect(outcome.audit).toEqual(auditPolicy(allowlist.rules, { generatorFindings: allowlist.findings }));
    expect(outcome.strictAudit).toEqual(auditPolicy(strict.rules, { generatorFindings: strict.findings }));
    // Two distinct URLs and one inline hash; the site and the CDN.
    expect(outcome.stats).toEqual({
      totalResources: 3,
      uniqueDomains: 2,
      securityIssues: outcome.audit.issues,
    });
    expect(outcome.errors).toEqual(['Sitemap https://site.example/sitemap.xml: not found']);
    expect(outcome.verification).toEqual({
      pagesChecked: 2,
      violations: 0,
      samples: [],
      firstPassViolations: 0,
      refined: false,
      remaining: [],
    });
    expect(outcome.needsAttention).toBe(false);
    expect(outcome.earned).toMatchObject({ analyses: 1, verifiedClean: 1 });
  });

  it('what verification still blocks leads the findings and the errors, and needs attention', () => {
    const outcome = analysisOutcome(crawl(), { first: blocking, final: blocking, refined: true }, options);
    const text =
      'Verification: the policy still blocks 2 item(s) on 2 page(s) (script-src-elem https://ads.example/a.js on https://site.example/; img-src data on /about). Review them before enforcing it.';
    expect(outcome.findings[0]).toEqual({
      severity: 'high',
      directive: '',
      code: 'verification-violations',
      value: '2',
      description: text,
      checker: 'generator',
    });
    expect(outcome.errors).toEqual(['Sitemap https://site.example/sitemap.xml: not found', text]);
    expect(outcome.verification).toMatchObject({ violations: 2, firstPassViolations: 2, refined: true });
    expect(outcome.verification.remaining).toEqual(blocking.blocked);
    expect(outcome.needsAttention).toBe(true);
    expect(outcome.earned.verifiedClean).toBe(0);
    // The audit reads the verification's finding too (the writer audits the same list).
    expect(outcome.audit.findings.some((f) => f.code === 'verification-violations')).toBe(true);
  });

  it('a refined policy that holds: the first pass is remembered, the final one is stored', () => {
    const outcome = analysisOutcome(crawl(), { first: blocking, final: clean, refined: true }, options);
    expect(outcome.verification).toMatchObject({ violations: 0, firstPassViolations: 2, refined: true });
    expect(outcome.findings.some((f) => f.code === 'verification-violations')).toBe(false);
    expect(outcome.needsAttention).toBe(false);
    expect(outcome.earned.verifiedClean).toBe(1);
  });

  it('incomplete pages and unchecked pages are error lines; incomplete ones need attention', () => {
    const incomplete = [
      { url: `${SITE}/a`, reason: 'timeout' },
      { url: `${SITE}/b`, reason: 'crashed' },
    ];
    const unchecked = { ...clean, unchecked: [`${SITE}/x`, `${SITE}/y`, `${SITE}/z`, `${SITE}/w`] };
    const outcome = analysisOutcome(
      crawl({ capture: capture(incomplete), errors: [] }),
      { first: unchecked, final: unchecked, refined: false },
      options,
    );
    expect(outcome.errors).toEqual([
      '2 of 2 pages incomplete, so the policy may be incomplete: https://site.example/a (timeout); https://site.example/b (crashed)',
      'Verification could not check 4 page(s): https://site.example/x, https://site.example/y, https://site.example/z',
    ]);
    expect(outcome.needsAttention).toBe(true);
    expect(
      analysisOutcome(crawl(), { first: unchecked, final: unchecked, refined: false }, options)
        .needsAttention,
    ).toBe(false);
  });

  it('a policy over its budget needs attention', () => {
    const tight: OutcomeOptions = { budget: { target: 'header', limit: 40 }, reporting: {} };
    const outcome = analysisOutcome(crawl(), { first: clean, final: clean, refined: false }, tight);
    expect(outcome.budget.fits).toBe(false);
    expect(outcome.needsAttention).toBe(true);
  });

  it("a domain's policies report to the product", () => {
    const outcome = analysisOutcome(
      crawl(),
      { first: clean, final: clean, refined: false },
      outcomeOptions({}, '/api/reports/d1'),
    );
    expect(outcome.rules['report-uri']).toEqual(['/api/reports/d1']);
    expect(outcome.rules['report-to']).toEqual([REPORTING_GROUP]);
    expect(serializePolicy(outcome.strictRules)).toContain('report-uri /api/reports/d1');
  });

  it('a high finding of the generator needs attention', () => {
    // Inline script that changes on every load: the allowlist policy blocks it.
    const unstable = artifactOfPages(SITE, {
      '/': [{ type: 'inline', directive: 'script-src-elem', hash: H1, unstable: true, page: '' }],
    });
    const outcome = analysisOutcome(
      crawl({ artifact: unstable }),
      { first: clean, final: clean, refined: false },
      options,
    );
    expect(outcome.findings.some((f) => f.severity === 'high')).toBe(true);
    expect(outcome.needsAttention).toBe(true);
  });

  it('a policy that lets code come from data: needs attention (the broad-source check judges it)', () => {
    const dataScript = artifactOfPages(SITE, {
      '/': [{ type: 'url', directive: 'script-src-elem', url: 'data:text/javascript,1', page: '' }],
    });
    const outcome = analysisOutcome(
      crawl({ artifact: dataScript }),
      { first: clean, final: clean, refined: false },
      options,
    );
    expect(outcome.rules['script-src']).toContain('data:');
    expect(outcome.findings.some((f) => f.severity === 'high')).toBe(false);
    expect(outcome.needsAttention).toBe(true);
    // data: images are no code.
    const dataImage = artifactOfPages(SITE, {
      '/': [{ type: 'url', directive: 'img-src', url: 'data:image/png;base64,AA', page: '' }],
    });
    expect(
      analysisOutcome(crawl({ artifact: dataImage }), { first: clean, final: clean, refined: false }, options)
        .needsAttention,
    ).toBe(false);
  });
});

describe('judgeRun', () => {
  it('audits each policy it is handed and counts what they earn', () => {
    const outcome = analysisOutcome(crawl(), { first: clean, final: clean, refined: false }, options);
    const judged = judgeRun(
      {
        rules: outcome.rules,
        findings: outcome.findings,
        strictRules: outcome.strictRules,
        strictFindings: outcome.strictFindings,
      },
      outcome.verification,
      options.reporting.reportUri ?? null,
    );
    expect(judged).toEqual({
      audit: outcome.audit,
      strictAudit: outcome.strictAudit,
      earned: outcome.earned,
    });
  });

  it('without a strict policy there is no strict audit, and an unsafe-inline policy is not clean', () => {
    const judged = judgeRun(
      {
        rules: { 'default-src': ["'none'"], 'script-src': ["'self'", "'unsafe-inline'"] },
        findings: [],
        strictRules: null,
        strictFindings: [],
      },
      { pagesChecked: 0, violations: 0, samples: [] },
      null,
    );
    expect(judged.strictAudit).toBeNull();
    expect(judged.earned).toEqual({ analyses: 1, cleanPolicies: 0, verifiedClean: 0, aPlus: 0 });
  });

  it('the achievements follow the grade: a verified policy with issues earns no praise, a Valid one does', () => {
    const verified = { pagesChecked: 6, violations: 0, samples: [] };
    const policy = (scripts: string[]) => ({
      rules: {
        'default-src': ["'none'"],
        'script-src': scripts,
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
      },
      findings: [],
      strictRules: null,
      strictFindings: [],
    });
    const withIssues = judgeRun(policy(["'self'", 'http://cdn.example']), verified, null);
    expect(withIssues.audit.issues).toBeGreaterThan(0);
    expect(withIssues.earned).toEqual({ analyses: 1, cleanPolicies: 0, verifiedClean: 0, aPlus: 0 });
    // The same policy made on loopback (its second origin on 127.0.0.1) is Valid, and earns both.
    const local = judgeRun(policy(["'self'", 'http://127.0.0.1:41234']), verified, null);
    expect(local.audit.issues).toBe(0);
    expect(local.earned).toMatchObject({ cleanPolicies: 1, verifiedClean: 1 });
  });
});
