// Browser tests of what an analysis tells about itself: the stage the crawler is really in (queued,
// discovering, crawling with its page count, re-rendering, generating, verifying) on the analysis screen,
// the domain screen's progress box and the standalone panel; a percent that never moves backwards; a failure
// met while polling; the truthful verification line with what remains blocked and 'Needs attention'; the
// crawl coverage card, the policy findings and the header budget; and an older analysis without any of them.
import { failAnalysis } from '@csp/functions/src/store/analysis-runs';
import { stageBands, stagePercent } from '@csp/shared/analyses/progress-bands';
import type { Domain } from '@csp/shared/schemas/domain';
import { describe, expect, it } from 'vitest';
import { visibleText } from './harness';
import {
  CAPTURE,
  FINDINGS,
  HEADER_BUDGET,
  REMAINING_VERIFICATION,
  reportProgress,
  seedCompleted,
  seedQueued,
  seedRunning,
} from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const text = () => visibleText(t.page);
const standalone = (url = 'https://www.example.com') => ({ userId: t.user.id, domainId: null, url });

async function open(path: string, selector: string) {
  await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'load' });
  await t.page.waitForSelector(selector);
}

async function stages(scope = '') {
  return t.page.$$eval(`${scope} [data-testid="crawl-stages"] li`, (lis) =>
    lis.map((li) => `${(li as HTMLElement).dataset.stage}:${(li as HTMLElement).dataset.state}`),
  );
}

/** Half of a 40-page crawl done, where the crawler puts it (its band depends on the pages found). */
const HALF_OF_40 = stagePercent(stageBands(40), 'crawling', 0.5);

const innerText = (selector: string) =>
  t.page.$eval(selector, (el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '));

describe('progress stages', () => {
  it('shows the stage the crawler reports, with the pages crawled while crawling', async () => {
    const expected = [
      {
        stage: 'discovering',
        progress: 1,
        active: 'Discovering URLs',
        status: 'Actively crawling and analyzing resources...',
      },
      {
        stage: 'crawling',
        progress: HALF_OF_40,
        active: 'Crawling Website',
        status: 'Actively crawling and analyzing resources...',
      },
      {
        stage: 'rerendering',
        progress: 84,
        active: 'Analyzing Resources',
        status: 'Actively crawling and analyzing resources...',
      },
      {
        stage: 'generating',
        progress: 89,
        active: 'Generating CSP',
        status: 'Actively crawling and analyzing resources...',
      },
      {
        stage: 'verifying',
        progress: 95,
        active: 'Generating CSP',
        status: 'Verifying the policy on your pages…',
      },
    ] as const;
    const labels = [
      'Discovering URLs',
      'Crawling Website',
      'Analyzing Resources',
      'Generating CSP',
      'Complete',
    ];
    for (const e of expected) {
      const id = await seedRunning(t.server.deps.db, standalone(), {
        stage: e.stage,
        progress: e.progress,
        currentPage: 'https://www.example.com/pricing',
        totalPages: 40,
      });
      await open(`/analysis/${id}`, '[data-testid="analysis-progress"]');
      const activeIndex = labels.indexOf(e.active);
      expect(await stages(), e.stage).toEqual(
        labels.map((l, i) => `${l}:${i < activeIndex ? 'done' : i === activeIndex ? 'active' : 'upcoming'}`),
      );
      expect(await innerText('[data-testid="progress-status"]'), e.stage).toBe(e.status);
      expect(await innerText('[data-testid="progress-percent"]')).toBe(`${e.progress}%`);
      if (e.stage === 'crawling') {
        expect(await innerText('[data-testid="stage-detail"]')).toBe('20 of 40 pages');
      } else {
        expect(await t.page.$('[data-testid="stage-detail"]'), e.stage).toBeNull();
      }
    }
  });

  it('says a queued analysis waits for a slot, with no stage started, on all three screens', async () => {
    const res = await t.client.post('/api/domains', {
      name: 'Queue',
      url: 'https://queue.example.com',
      isActive: true,
    });
    const domain = (await res.json()) as Domain;
    const id = await seedQueued(t.server.deps.db, {
      userId: t.user.id,
      domainId: domain.id,
      url: domain.url,
    });
    // Its place counts this user's other waiting analyses, seeded by earlier tests.
    const queued =
      /^Queued — position \d+: (yours starts next|\d+ of yours starts? first) \(2 run at once\)$/;

    await open(`/analysis/${id}`, '[data-testid="analysis-progress"]');
    expect(await innerText('[data-testid="progress-status"]')).toMatch(queued);
    expect((await stages()).every((s) => s.endsWith(':upcoming'))).toBe(true);
    expect(await text()).not.toContain('Initializing analysis engine...');

    await open(`/domains/${domain.id}`, '[data-testid="active-analysis"]');
    expect(await innerText('[data-testid="active-analysis"] [data-testid="progress-status"]')).toMatch(
      queued,
    );

    await open(`/csp-generator?analysis=${id}`, '[data-testid="analysis-progress"]');
    expect(await text()).toContain('CSP Analysis in Progress');
    expect(await innerText('[data-testid="progress-status"]')).toMatch(queued);
  });

  it("shows the stage in the domain screen's progress box and the standalone panel", async () => {
    const res = await t.client.post('/api/domains', {
      name: 'Stages',
      url: 'https://stages.example.com',
      isActive: true,
    });
    const domain = (await res.json()) as Domain;
    const id = await seedRunning(
      t.server.deps.db,
      { userId: t.user.id, domainId: domain.id, url: domain.url },
      {
        stage: 'crawling',
        progress: HALF_OF_40,
        currentPage: 'https://stages.example.com/a',
        totalPages: 40,
      },
    );
    await open(`/domains/${domain.id}`, '[data-testid="active-analysis"]');
    expect(await innerText('[data-testid="progress-stage"]')).toBe('Crawling Website, 20 of 40 pages');

    await open(`/csp-generator?analysis=${id}`, '[data-testid="analysis-progress"]');
    expect(await t.page.$eval('[aria-current="step"]', (li) => (li as HTMLElement).dataset.stage)).toBe(
      'Crawling Website',
    );
    expect(await innerText('[data-testid="stage-detail"]')).toBe('20 of 40 pages');
  });

  it('never shows the percent going backwards while polling', async () => {
    const id = await seedRunning(t.server.deps.db, standalone(), {
      stage: 'crawling',
      progress: 60,
      currentPage: 'https://www.example.com/one',
      totalPages: 10,
    });
    await open(`/analysis/${id}`, '[data-testid="analysis-progress"]');
    expect(await innerText('[data-testid="progress-percent"]')).toBe('60%');
    // A continuation that reports a lower figure (the next poll, 2 s later, brings the new page).
    await reportProgress(t.server.deps.db, id, { progress: 30, currentPage: 'https://www.example.com/two' });
    await t.page.waitForFunction(() => document.body.innerText.includes('https://www.example.com/two'), {
      timeout: 10_000,
    });
    expect(await innerText('[data-testid="progress-percent"]')).toBe('60%');
    expect(
      await t.page.$eval('[data-testid="analysis-progress"] [role="progressbar"]', (p) => p.ariaValueNow),
    ).toBe('60');
  });

  it("replaces the progress of an analysis that fails with 'Analysis Failed' and its errors, first first", async () => {
    const id = await seedRunning(t.server.deps.db, standalone(), {
      stage: 'verifying',
      progress: 99,
      currentPage: null,
      totalPages: 12,
    });
    await open(`/analysis/${id}`, '[data-testid="analysis-progress"]');
    const errors = [
      'https://www.example.com/: net::ERR_CONNECTION_RESET',
      'The crawl stopped after 3 failed attempts and was abandoned. Please start a new analysis.',
    ];
    expect(await failAnalysis(t.server.deps.db, id, `run-${id}`, errors)).toBe(true);
    await t.page.waitForSelector('[data-testid="analysis-failed"]', { timeout: 10_000 });
    expect(await t.page.$('[data-testid="analysis-progress"]')).toBeNull();
    expect(
      await t.page.$$eval('[data-testid="analysis-errors"] li', (lis) => lis.map((li) => li.textContent)),
    ).toEqual(errors);
    expect(await text()).not.toContain('99%');
  });
});

describe('verification, findings, coverage and budget', () => {
  it("says '0 violations' only when nothing remains, and no 'Needs attention'", async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      verification: {
        pagesChecked: 12,
        violations: 0,
        samples: [],
        remaining: [],
        refined: true,
        firstPassViolations: 3,
      },
      needsAttention: false,
      findings: [],
    });
    await open(`/analysis/${id}`, '[data-testid="policy-card"]');
    expect(await innerText('[data-testid="verification-headline"]')).toBe(
      'Verified on 12 pages: 0 violations',
    );
    expect(await innerText('[data-testid="verification"]')).toContain(
      "The policy was refined once from the first pass's 3 violations.",
    );
    expect(await t.page.$('[data-testid="needs-attention"]')).toBeNull();
    // The audit of a clean allowlist policy: advice only (low and info), grade A.
    const severities = await t.page.$$eval('[data-testid="finding"]', (lis) =>
      lis.map((li) => (li as HTMLElement).dataset.severity),
    );
    expect(severities.filter((s) => s === 'high' || s === 'medium')).toEqual([]);
    expect(await innerText('[data-testid="policy-findings"]')).toContain('Grade A');
  });

  it("lists what the verified policy still blocks and marks the policy 'Needs attention'", async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      verification: REMAINING_VERIFICATION,
      needsAttention: true,
    });
    await open(`/analysis/${id}`, '[data-testid="policy-card"]');
    expect(
      await t.page.$eval('[data-testid="verification"]', (el) => (el as HTMLElement).dataset.state),
    ).toBe('violations');
    expect(await innerText('[data-testid="verification-headline"]')).toBe(
      'Verified on 10 pages: 2 violations remain',
    );
    expect(await innerText('[data-testid="verification"]')).toContain(
      "refined once from the first pass's 5 violations",
    );
    const items = await t.page.$$eval('[data-testid="remaining-violation"]', (lis) =>
      lis.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    expect(items).toEqual([
      'script-src-elem blocked https://cdn.example.net/widget.js on /support',
      'style-src-attr blocked inline transform: translateX(-12px) on /pricing?plan=team',
    ]);
    expect(await innerText('[data-testid="needs-attention"]')).toBe('Needs attention');
    expect(await text()).not.toContain('0 violations');
  });

  it("marks the policy 'Needs attention' when violations remain even if the analysis does not flag it", async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      verification: {
        pagesChecked: 1,
        violations: 0,
        samples: [],
        remaining: [REMAINING_VERIFICATION.remaining![0]!],
      },
      needsAttention: false,
    });
    await open(`/analysis/${id}`, '[data-testid="policy-card"]');
    expect(await innerText('[data-testid="verification-headline"]')).toBe(
      'Verified on 1 page: 1 violation remains',
    );
    expect(await t.page.$('[data-testid="needs-attention"]')).not.toBeNull();
  });

  it('shows the crawl coverage, the findings most severe first and the header budget', async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      capture: CAPTURE,
      findings: FINDINGS,
      budget: HEADER_BUDGET,
      verification: REMAINING_VERIFICATION,
      needsAttention: true,
    });
    for (const path of [`/analysis/${id}`, `/csp-generator?analysis=${id}`]) {
      await open(path, '[data-testid="crawl-coverage"]');
      const coverage = await innerText('[data-testid="crawl-coverage"]');
      for (const expected of [
        'Crawl coverage',
        '2 of 42 pages incomplete',
        'The policy may be incomplete',
        'https://www.example.com/careers',
        'navigation timed out after 30 s (retried once)',
        'https://www.example.com/account/billing',
        'the tab crashed while acting on the page',
        '7 resources appeared only after interaction',
        'https://js.stripe.com/v3/',
        'and 4 more',
        '3 requests the page tried to send were answered by the crawler (never sent)',
        '1 navigation blocked',
        '6 pages re-rendered: 2 inline items change on every load',
        'window.__CSRF__ = "9f2c1e7a4b"',
        'on / and 3 more pages',
      ]) {
        expect(coverage, path).toContain(expected);
      }
      expect(await t.page.$$eval('[data-testid="incomplete-page"]', (lis) => lis.length)).toBe(2);

      const findings = await t.page.$$eval('[data-testid="finding"]', (lis) =>
        lis.map((li) => [
          (li as HTMLElement).dataset.severity,
          (li as HTMLElement).innerText.replace(/\s+/g, ' '),
        ]),
      );
      // The generator's findings and the audit's, in one list, most severe first, each naming its source.
      const order = ['high', 'medium', 'low', 'info'];
      const ranks = findings.map(([s]) => order.indexOf(s!));
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      const texts = findings.map(([, t]) => t!);
      // The badge is capitalised by CSS, which innerText follows.
      expect(texts).toContain(
        "High style-src-attr 'unsafe-inline' Generator To fit the 4,096-byte header budget, 212 style= attribute hashes were replaced by 'unsafe-inline'.",
      );
      expect(texts.some((t) => t.includes('https://*.example-cdn.net') && t.includes('Generator'))).toBe(
        true,
      );
      expect(texts.some((t) => t.includes('Policy check') && t.includes('Fix:'))).toBe(true);

      expect(await innerText('[data-testid="policy-budget"]')).toContain('Header: 3,912 of 4,096 bytes');
      expect(
        await t.page.$eval('[data-testid="policy-budget"]', (el) => (el as HTMLElement).dataset.fits),
      ).toBe('true');
      expect(await t.page.$('[data-testid="needs-attention"]')).not.toBeNull();
    }
  });

  it('shows a CloudFront value over its cap in red', async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), {
      budget: { target: 'cloudfront', limit: 1783, length: 1950, fits: false },
      capture: { ...CAPTURE, pagesIncomplete: 0, incomplete: [], writesAnswered: 0, unstableInline: [] },
    });
    await open(`/analysis/${id}`, '[data-testid="policy-budget"]');
    expect(await innerText('[data-testid="policy-budget"]')).toContain(
      'CloudFront value: 1,950 of 1,783 characters',
    );
    expect(
      await t.page.$eval('[data-testid="policy-budget"]', (el) => (el as HTMLElement).dataset.fits),
    ).toBe('false');
    expect(await innerText('[data-testid="policy-budget"]')).toContain(
      'Too long for a CloudFront response-headers policy',
    );
    const coverage = await innerText('[data-testid="crawl-coverage"]');
    expect(coverage).toContain('All 42 pages captured completely');
    expect(coverage).not.toContain('The policy may be incomplete');
    expect(coverage).not.toContain('answered by the crawler');
    expect(coverage).toContain('6 pages re-rendered: no inline code changed between loads');
    // The budget is the allowlist policy's: the strict one does not show it.
    await t.page.click('xpath/.//label[normalize-space()="Strict"]');
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="policy-budget"]'));
  });

  it('shows an older analysis as before (no coverage, budget or attention badge), audited on read', async () => {
    const id = await seedCompleted(t.server.deps.db, standalone(), { legacy: true });
    await open(`/analysis/${id}`, '[data-testid="policy-card"]');
    expect(await innerText('[data-testid="verification-headline"]')).toBe(
      'Verified on 12 pages: 0 violations',
    );
    for (const testId of ['crawl-coverage', 'policy-budget', 'needs-attention']) {
      expect(await t.page.$(`[data-testid="${testId}"]`), testId).toBeNull();
    }
    const analysis = (await (await t.client.get(`/api/csp/analyze/${id}`)).json()).analysis;
    expect(analysis.findings).toBeUndefined();
    expect(analysis.capture).toBeUndefined();
    // Analyses stored before audits were kept get theirs on read, and their Issues count from it.
    expect(analysis.audit.grade).toMatch(/^[A-F]\+?$/);
    expect(analysis.resourceStats.securityIssues).toBe(analysis.audit.issues);
    expect(await t.page.$('[data-testid="policy-findings"]')).not.toBeNull();
  });
});

describe('phone layout', () => {
  it('lays out the coverage, findings, remaining violations and stages without horizontal scrolling', async () => {
    const completed = await seedCompleted(t.server.deps.db, standalone(), {
      capture: CAPTURE,
      findings: FINDINGS,
      budget: HEADER_BUDGET,
      verification: REMAINING_VERIFICATION,
      needsAttention: true,
    });
    const running = await seedRunning(t.server.deps.db, standalone(), {
      stage: 'crawling',
      progress: 41,
      currentPage: `https://www.example.com/${'very-long-path-segment/'.repeat(6)}`,
      totalPages: 40,
    });
    await t.page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
    try {
      for (const [path, selector] of [
        [`/analysis/${completed}`, '[data-testid="crawl-coverage"]'],
        [`/csp-generator?analysis=${completed}`, '[data-testid="policy-findings"]'],
        [`/analysis/${running}`, '[data-testid="stage-detail"]'],
      ] as const) {
        await open(path, selector);
        const overflow = await t.page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    } finally {
      await t.page.setViewport({ width: 1280, height: 800 });
    }
  });
});
