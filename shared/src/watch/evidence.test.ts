// The evidence export's formatting: each section's rows from its source, attacker text (script URLs, header
// values, justifications) neutralised and quoted so the CSV reads back cell for cell, the JSON document's
// version and shape, the period's defaults and bounds, and a safe file name.
import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv-reader';
import {
  EVIDENCE_CSV_COLUMNS,
  type EvidenceInput,
  evidenceCsv,
  evidenceFilename,
  evidenceJson,
} from './evidence';
import { evidencePeriod } from './evidence-period';
import type { InventoryEntry } from './inventory';
import type { WatchedScript } from './snapshot';

const EVIL_URL = "https://evil.test/a.js?x=\",=cmd|'/c calc'!A1";
const script = (url: string, digest: string, extra: Partial<WatchedScript> = {}): WatchedScript => ({
  key: url,
  kind: 'external',
  url,
  digest,
  party: 'third',
  initiator: null,
  pages: ['https://shop.test/', 'https://shop.test/checkout'],
  pageCount: 2,
  ...extra,
});
const entry: InventoryEntry = {
  key: 'https://shop.test/app.js',
  kind: 'external',
  url: 'https://shop.test/app.js',
  party: 'first',
  initiator: null,
  digest: 'sha384-A',
  digests: [
    { digest: 'sha384-A', firstSeen: '2026-10-01T06:00:00.000Z', lastSeen: '2026-11-20T06:00:00.000Z' },
  ],
  pages: ['https://shop.test/', 'https://shop.test/checkout'],
  pageCount: 2,
  firstSeen: '2026-10-01T06:00:00.000Z',
  lastSeen: '2026-11-20T06:00:00.000Z',
  state: 'authorized',
  authorization: {
    by: 'u1',
    at: '2026-10-02T09:00:00.000Z',
    justification: '=Checkout, "core" bundle',
    digest: 'sha384-A',
    anyContent: false,
    ruleId: null,
  },
  seenBy: 'crawl',
};

const input: EvidenceInput = {
  domain: { name: 'Shop', url: 'https://shop.test/' },
  period: { from: '2026-11-01', to: '2026-11-26' },
  generatedAt: '2026-11-26T10:00:00.000Z',
  inventory: [
    entry,
    {
      ...entry,
      key: EVIL_URL,
      url: EVIL_URL,
      party: 'third',
      state: 'pending',
      authorization: null,
      digests: [],
    },
  ],
  people: { u1: 'alice' },
  history: [
    {
      id: 'H1',
      type: 'authorized',
      at: '2026-11-02T09:00:00.000Z',
      scriptKey: entry.key,
      ruleId: null,
      analysisId: null,
      by: 'u1',
      byName: 'alice',
      justification: 'Checkout bundle',
      digest: 'sha384-A',
      before: null,
      state: 'authorized',
      anyContent: false,
      pattern: null,
    },
  ],
  runs: [
    {
      analysisId: 'R1',
      previousAnalysisId: null,
      completedAt: '2026-11-03T06:00:00.000Z',
      counts: {
        scriptsAdded: 0,
        scriptsChanged: 0,
        scriptsRemoved: 0,
        originChanges: 0,
        policyChanges: 0,
        headerChanges: 0,
        drift: null,
      },
      changes: null,
      drift: null,
      truncated: false,
    },
    {
      analysisId: 'R2',
      previousAnalysisId: 'R1',
      completedAt: '2026-11-10T06:00:00.000Z',
      counts: {
        scriptsAdded: 1,
        scriptsChanged: 1,
        scriptsRemoved: 0,
        originChanges: 1,
        policyChanges: 1,
        headerChanges: 1,
        drift: 'none-served',
      },
      changes: {
        scripts: {
          added: [script(EVIL_URL, 'sha384-E', { party: 'fourth', initiator: 'https://tags.test/t.js' })],
          changed: [{ before: script(entry.key, 'sha384-A'), after: script(entry.key, 'sha384-B') }],
          removed: [],
        },
        origins: [{ directive: 'script-src', change: 'changed', added: ['https://evil.test'], removed: [] }],
        policy: [{ directive: 'script-src', change: 'changed', added: ['https://evil.test'], removed: [] }],
        headers: [
          {
            header: 'content-security-policy',
            change: 'removed',
            before: "script-src 'self'",
            after: null,
            pages: ['https://shop.test/'],
          },
        ],
      },
      drift: {
        state: 'none-served',
        header: 'content-security-policy',
        variants: [{ served: null, pages: ['https://shop.test/'], differences: [] }],
      },
      truncated: false,
    },
    {
      analysisId: 'R3',
      previousAnalysisId: 'R2',
      completedAt: '2026-11-17T06:00:00.000Z',
      counts: {
        scriptsAdded: 0,
        scriptsChanged: 0,
        scriptsRemoved: 0,
        originChanges: 0,
        policyChanges: 0,
        headerChanges: 0,
        drift: null,
      },
      changes: { scripts: { added: [], changed: [], removed: [] }, origins: [], policy: [], headers: [] },
      drift: null,
      truncated: false,
    },
  ],
  alerts: [
    {
      id: 'A1',
      kind: 'script-changed',
      domainId: 'd1',
      domainName: 'Shop',
      cause: entry.key,
      summary: '+Script content changed: app.js',
      path: '/domains/d1?tab=scripts',
      count: 2,
      firstSeen: '2026-11-10T06:00:00.000Z',
      lastSeen: '2026-11-17T06:00:00.000Z',
    },
  ],
  deliveries: [
    {
      id: 'D1',
      alertId: 'A1',
      kind: 'script-changed',
      summary: 'Script content changed',
      channel: 'webhook',
      target: 'w1',
      status: 'failed',
      attempts: 5,
      nextAttemptAt: null,
      lastStatus: 500,
      lastError: '@error from receiver',
      createdAt: '2026-11-10T06:00:01.000Z',
      updatedAt: '2026-11-10T07:00:00.000Z',
    },
  ],
  cut: { runs: false, alerts: false, deliveries: false },
};

/** The CSV read back as objects keyed by column. */
function readCsv(text: string) {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [header, ...records] = parseCsv(text.slice(1));
  expect(header).toEqual([...EVIDENCE_CSV_COLUMNS]);
  for (const r of records) expect(r).toHaveLength(EVIDENCE_CSV_COLUMNS.length);
  return records.map((r) => Object.fromEntries(header!.map((c, i) => [c, r[i]!])));
}

describe('evidence export', () => {
  it('writes one row per script of the inventory with its justification, who and when', () => {
    const rows = readCsv(evidenceCsv(input)).filter((r) => r.section === 'inventory');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      script: entry.key,
      url: entry.url,
      kind: 'external',
      party: 'first',
      pages: 'https://shop.test/\nhttps://shop.test/checkout',
      page_count: '2',
      digest: 'sha384-A',
      state: 'authorized',
      // Attacker-chosen text starting with = is shown as text, never run.
      justification: `'=Checkout, "core" bundle`,
      by: 'alice (u1)',
      authorized_at: '2026-10-02T09:00:00.000Z',
      any_content: 'false',
      first_seen: '2026-10-01T06:00:00.000Z',
      last_seen: '2026-11-20T06:00:00.000Z',
    });
    // The URL with a quote, a comma and a formula after them reads back unchanged (it does not start with =).
    expect(rows[1]).toMatchObject({ script: EVIL_URL, state: 'pending', justification: '', by: '' });
  });

  it('writes the authorization history, the change log (with first and unchanged runs) and the alerts', () => {
    const rows = readCsv(evidenceCsv(input));
    expect(rows.filter((r) => r.section === 'authorization-history')).toEqual([
      expect.objectContaining({
        at: '2026-11-02T09:00:00.000Z',
        event: 'authorized',
        script: entry.key,
        justification: 'Checkout bundle',
        by: 'alice (u1)',
        digest: 'sha384-A',
        state: 'authorized',
      }),
    ]);
    const log = rows.filter((r) => r.section === 'change-log').map((r) => [r.analysis_id, r.event]);
    expect(log).toEqual([
      ['R1', 'first-run'],
      ['R2', 'script-added'],
      ['R2', 'script-changed'],
      ['R2', 'origins-changed'],
      ['R2', 'policy-changed'],
      ['R2', 'header-removed'],
      ['R2', 'drift'],
      ['R3', 'no-change'],
    ]);
    const changeRows = rows.filter((r) => r.section === 'change-log');
    expect(changeRows[1]).toMatchObject({
      script: EVIL_URL,
      party: 'fourth',
      initiator: 'https://tags.test/t.js',
    });
    expect(changeRows[2]).toMatchObject({
      digest: 'sha384-B',
      previous_digest: 'sha384-A',
      previous_analysis_id: 'R1',
    });
    expect(changeRows[5]!.detail).toBe("content-security-policy: script-src 'self' -> (none)");
    expect(changeRows[6]).toMatchObject({ state: 'none-served', pages: 'https://shop.test/' });
    expect(rows.filter((r) => r.section === 'alerts')).toEqual([
      expect.objectContaining({
        event: 'script-changed',
        count: '2',
        detail: "'+Script content changed: app.js",
      }),
    ]);
    expect(rows.filter((r) => r.section === 'alert-deliveries')).toEqual([
      expect.objectContaining({ state: 'failed', recipient: 'webhook w1', error: "'@error from receiver" }),
    ]);
  });

  it('neutralises every cell that starts like a formula, whatever section it is in', () => {
    const nasty = '-1+cmd';
    const rows = readCsv(
      evidenceCsv({
        ...input,
        inventory: [{ ...entry, key: nasty, url: nasty, pages: ['@page'] }],
        history: [{ ...input.history[0]!, justification: '\t=x', byName: '=bad' }],
      }),
    );
    for (const r of rows) for (const v of Object.values(r)) expect(v).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows[0]).toMatchObject({ script: `'${nasty}`, pages: "'@page" });
  });

  it('builds a versioned JSON document with the names of who authorized', () => {
    const doc = evidenceJson(input);
    expect(doc).toMatchObject({
      format: 'csp-generator-evidence',
      version: 1,
      generatedAt: input.generatedAt,
      domain: input.domain,
      period: input.period,
      authorizationHistory: input.history,
      changeLog: input.runs,
      alerts: input.alerts,
      alertDeliveries: input.deliveries,
      cut: input.cut,
    });
    expect(doc.inventory[0]!.authorization).toMatchObject({ by: 'u1', byName: 'alice' });
    expect(doc.inventory[1]!.authorization).toBeNull();
    // It survives JSON as is (what the API sends).
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('says when a list was cut at its limit', () => {
    const rows = readCsv(evidenceCsv({ ...input, cut: { runs: true, alerts: false, deliveries: true } }));
    expect(rows.at(-1)).toMatchObject({ event: 'cut', detail: 'Lists cut at their limit: runs, deliveries' });
  });

  it('names the file from the domain and the period, with safe characters only', () => {
    const period = { from: '2026-01-01', to: '2026-03-31' };
    expect(evidenceFilename('Shop', period, 'csv')).toBe('evidence-shop-2026-01-01-2026-03-31.csv');
    expect(evidenceFilename('../"a\r\nb";x=.exe', period, 'json')).toBe(
      'evidence-a-b-x-.exe-2026-01-01-2026-03-31.json',
    );
    expect(evidenceFilename('日本', period, 'csv')).toBe('evidence-domain-2026-01-01-2026-03-31.csv');
  });
});

describe('evidence period', () => {
  const now = Date.parse('2026-11-26T10:00:00.000Z');
  it('defaults to the last 90 days, today included', () => {
    expect(evidencePeriod({}, now)).toEqual({
      fromDay: '2026-08-29',
      toDay: '2026-11-26',
      from: '2026-08-29T00:00:00.000Z',
      to: '2026-11-26T23:59:59.999Z',
    });
    expect(evidencePeriod({ to: '2026-03-31' }, now)).toMatchObject({
      fromDay: '2026-01-01',
      toDay: '2026-03-31',
    });
    expect(evidencePeriod({ from: '2026-11-01' }, now)).toMatchObject({
      fromDay: '2026-11-01',
      toDay: '2026-11-26',
    });
    expect(evidencePeriod({ from: '2026-01-01' }, now)).toMatchObject({ toDay: '2026-03-31' });
  });

  it('takes up to 366 days and refuses more, or a period that ends before it starts', () => {
    expect(evidencePeriod({ from: '2024-01-01', to: '2024-12-31' }, now)).toMatchObject({
      fromDay: '2024-01-01',
    });
    expect(evidencePeriod({ from: '2025-01-01', to: '2026-01-02' }, now)).toEqual({
      error: 'The period is 367 days long; an export covers 366 days at most',
    });
    expect(evidencePeriod({ from: '2026-02-02', to: '2026-02-01' }, now)).toEqual({
      error: 'The period ends (2026-02-01) before it starts (2026-02-02)',
    });
  });
});
