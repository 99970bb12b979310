import { describe, expect, it } from 'vitest';
import { type ReportGroupEvidence, suggestFromReports } from './suggestions';

const ORIGIN = 'https://www.example.com';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const basis = { rules: {}, siteOrigin: ORIGIN, knowledge: null };
const group = (g: Pick<ReportGroupEvidence, 'directive' | 'source' | 'reports'>): ReportGroupEvidence => ({
  count: g.reports.length,
  firstSeen: '2026-11-24T09:00:00.000Z',
  lastSeen: '2026-11-24T10:00:00.000Z',
  ...g,
});

describe('suggestFromReports: engines', () => {
  it('a group only Firefox reported is a Firefox-only miss; a mixed one names no engine', () => {
    const [firefoxOnly] = suggestFromReports(
      [
        group({
          directive: 'img-src',
          source: ORIGIN,
          reports: [
            { documentUri: `${ORIGIN}/`, userAgent: FIREFOX },
            { documentUri: `${ORIGIN}/a`, userAgent: FIREFOX },
          ],
        }),
      ],
      basis,
    );
    expect(firefoxOnly).toMatchObject({
      engines: { chromium: 0, firefox: 2, safari: 0, other: 0 },
      onlyEngine: 'firefox',
    });
    const [mixed] = suggestFromReports(
      [
        group({
          directive: 'img-src',
          source: ORIGIN,
          reports: [
            { documentUri: `${ORIGIN}/`, userAgent: FIREFOX },
            { documentUri: `${ORIGIN}/a`, userAgent: CHROME },
          ],
        }),
      ],
      basis,
    );
    expect(mixed).toMatchObject({ engines: { chromium: 1, firefox: 1 }, onlyEngine: null });
  });

  it('inline code: each sample counts the engines of its own reports', () => {
    const out = suggestFromReports(
      [
        group({
          directive: 'style-src-elem',
          source: 'inline',
          reports: [
            { documentUri: `${ORIGIN}/`, scriptSample: 'img:-moz-broken{', userAgent: FIREFOX },
            { documentUri: `${ORIGIN}/`, scriptSample: '.x{color:red}', userAgent: CHROME },
          ],
        }),
      ],
      basis,
    );
    const bySample = Object.fromEntries(out.map((s) => [s.reason.includes('-moz-broken') ? 'moz' : 'x', s]));
    expect(bySample.moz).toMatchObject({ onlyEngine: 'firefox', engines: { firefox: 1, chromium: 0 } });
    expect(bySample.x).toMatchObject({ onlyEngine: 'chromium', engines: { firefox: 0, chromium: 1 } });
  });
});
