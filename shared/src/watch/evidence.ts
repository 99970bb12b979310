// The evidence export of a domain for an assessor (PCI DSS 6.4.3 and 11.6.1): the script inventory with its
// justifications, the append-only authorization history of a period, the change log of the watched runs of
// the period, and the alerts raised and sent in it; as one versioned JSON document and as one CSV.
//
// The CSV is ONE file with a `section` column first (inventory, authorization-history, change-log, alerts,
// alert-deliveries) and one header row naming every column, each section filling the columns that apply to
// it. Why not a file per table: that needs a zip the assessor must unpack, and the sections would drift
// apart as separate files are passed around. Why not a header comment row per section: spreadsheets have no
// comment rows, so each would be read as data and break the column filter and sorting. One header row makes
// the file open as a single table in Excel, LibreOffice and Sheets, where a filter on `section` shows one
// table at a time with its columns named.
//
// The inventory is the state at `generatedAt` (it is one current item per script); history, change log and
// alerts are those of the period. Pure: the API reads what goes in.
import type { RaisedAlert } from '../alerts/alert';
import type { AlertDelivery } from '../schemas/alert-settings';
import type { ScriptHistoryRow } from '../schemas/script-inventory';
import type { RunChanges } from './compare';
import { type CsvValue, csvDocument } from './csv';
import type { Drift } from './drift';
import type { InventoryEntry } from './inventory';
import type { DirectiveDiff } from './policy-diff';

export const EVIDENCE_FORMAT = 'csp-generator-evidence';
export const EVIDENCE_VERSION = 1;

/** A watched run of the period: when it completed, what it was compared with, and what changed. */
export interface EvidenceRun {
  analysisId: string;
  /** Null: the domain's first watched run (nothing to compare). */
  previousAnalysisId: string | null;
  completedAt: string;
  counts: {
    scriptsAdded: number;
    scriptsChanged: number;
    scriptsRemoved: number;
    originChanges: number;
    policyChanges: number;
    headerChanges: number;
    drift: Drift['state'] | null;
  };
  changes: RunChanges | null;
  drift: Drift | null;
  /** The stored lists were cut to fit (the counts are whole). */
  truncated: boolean;
}

export interface EvidenceInput {
  domain: { name: string; url: string };
  period: { from: string; to: string };
  generatedAt: string;
  inventory: InventoryEntry[];
  /** Names of the people who authorized, by user id (an authorization keeps only the id). */
  people: Record<string, string>;
  history: ScriptHistoryRow[];
  runs: EvidenceRun[];
  alerts: RaisedAlert[];
  deliveries: AlertDelivery[];
  /** Lists cut at their limit (the export says so rather than look complete). */
  cut: { runs: boolean; alerts: boolean; deliveries: boolean };
}

export function evidenceJson(input: EvidenceInput) {
  const name = (id: string) => input.people[id] ?? null;
  return {
    format: EVIDENCE_FORMAT,
    version: EVIDENCE_VERSION,
    generatedAt: input.generatedAt,
    domain: input.domain,
    period: input.period,
    inventory: input.inventory.map((e) => ({
      ...e,
      authorization: e.authorization && { ...e.authorization, byName: name(e.authorization.by) },
    })),
    authorizationHistory: input.history,
    changeLog: input.runs,
    alerts: input.alerts,
    alertDeliveries: input.deliveries,
    cut: input.cut,
  };
}
export type EvidenceDocument = ReturnType<typeof evidenceJson>;

export const EVIDENCE_SECTIONS = [
  'inventory',
  'authorization-history',
  'change-log',
  'alerts',
  'alert-deliveries',
] as const;

export const EVIDENCE_CSV_COLUMNS = [
  'section',
  'at',
  'event',
  'script',
  'url',
  'kind',
  'party',
  'initiator',
  'pages',
  'page_count',
  'digest',
  'previous_digest',
  'state',
  'justification',
  'by',
  'authorized_at',
  'any_content',
  'rule_pattern',
  'first_seen',
  'last_seen',
  'analysis_id',
  'previous_analysis_id',
  'count',
  'detail',
  'link',
  'recipient',
  'error',
] as const;
type Column = (typeof EVIDENCE_CSV_COLUMNS)[number];
export type EvidenceCsvRow = Partial<Record<Column, CsvValue>> & {
  section: (typeof EVIDENCE_SECTIONS)[number];
};

/** Pages in one cell, one a line (a spreadsheet shows them stacked). */
const pageList = (pages: readonly string[]) => pages.join('\n');
const person = (id: string | null, name: string | null | undefined) =>
  id === null ? null : name ? `${name} (${id})` : id;
const sources = (d: DirectiveDiff) =>
  [...d.added.map((s) => `+${s}`), ...d.removed.map((s) => `-${s}`)].join(' ');

function inventoryRows(input: EvidenceInput): EvidenceCsvRow[] {
  return input.inventory.map((e) => ({
    section: 'inventory',
    at: input.generatedAt,
    script: e.key,
    url: e.url,
    kind: e.kind,
    party: e.party,
    initiator: e.initiator,
    pages: pageList(e.pages),
    page_count: e.pageCount,
    digest: e.digest,
    state: e.state,
    justification: e.authorization?.justification,
    by: e.authorization && person(e.authorization.by, input.people[e.authorization.by]),
    authorized_at: e.authorization?.at,
    any_content: e.authorization?.anyContent,
    first_seen: e.firstSeen,
    last_seen: e.lastSeen,
    detail: e.seenBy === 'field' ? 'Seen only in visitors’ reports, not by a crawl' : null,
  }));
}

function historyRows(input: EvidenceInput): EvidenceCsvRow[] {
  return input.history.map((h) => ({
    section: 'authorization-history',
    at: h.at,
    event: h.type,
    script: h.scriptKey,
    digest: h.digest,
    previous_digest: h.before,
    state: h.state,
    justification: h.justification,
    by: person(h.by, h.byName),
    any_content: h.anyContent,
    rule_pattern: h.pattern,
    analysis_id: h.analysisId,
    detail: h.ruleId === null ? null : `rule ${h.ruleId}`,
  }));
}

function runRows(run: EvidenceRun): EvidenceCsvRow[] {
  const base = {
    section: 'change-log' as const,
    at: run.completedAt,
    analysis_id: run.analysisId,
    previous_analysis_id: run.previousAnalysisId,
  };
  if (run.previousAnalysisId === null) {
    return [{ ...base, event: 'first-run', detail: 'The first watched run: nothing to compare with' }];
  }
  const rows: EvidenceCsvRow[] = [];
  const c = run.changes;
  if (c) {
    for (const s of c.scripts.added) {
      rows.push({
        ...base,
        event: 'script-added',
        script: s.key,
        url: s.url,
        kind: s.kind,
        party: s.party,
        initiator: s.initiator,
        pages: pageList(s.pages),
        page_count: s.pageCount,
        digest: s.digest,
      });
    }
    for (const { before, after } of c.scripts.changed) {
      rows.push({
        ...base,
        event: 'script-changed',
        script: after.key,
        url: after.url,
        kind: after.kind,
        party: after.party,
        pages: pageList(after.pages),
        page_count: after.pageCount,
        digest: after.digest,
        previous_digest: before.digest,
      });
    }
    for (const s of c.scripts.removed) {
      rows.push({
        ...base,
        event: 'script-removed',
        script: s.key,
        url: s.url,
        kind: s.kind,
        party: s.party,
        previous_digest: s.digest,
      });
    }
    for (const d of c.origins) {
      rows.push({ ...base, event: `origins-${d.change}`, detail: `${d.directive}: ${sources(d)}` });
    }
    for (const d of c.policy) {
      rows.push({ ...base, event: `policy-${d.change}`, detail: `${d.directive}: ${sources(d)}` });
    }
    for (const h of c.headers) {
      rows.push({
        ...base,
        event: `header-${h.change}`,
        pages: pageList(h.pages),
        page_count: h.pages.length,
        detail: `${h.header}: ${h.before ?? '(none)'} -> ${h.after ?? '(none)'}`,
      });
    }
  }
  if (run.drift) {
    const pages = run.drift.variants.flatMap((v) => (run.drift?.state === 'matches' ? [] : v.pages));
    rows.push({
      ...base,
      event: 'drift',
      state: run.drift.state,
      pages: pageList(pages),
      page_count: pages.length,
      detail: `${run.drift.header} served vs the saved configuration: ${run.drift.state}`,
    });
  }
  // A run that changed nothing is evidence too (11.6.1: the check ran, at least weekly).
  if (rows.length === 0)
    rows.push({ ...base, event: 'no-change', detail: 'Nothing changed since the run before' });
  if (run.truncated) {
    rows.push({ ...base, event: 'cut', detail: 'This run’s lists were cut to fit; the counts are whole' });
  }
  return rows;
}

function alertRows(input: EvidenceInput): EvidenceCsvRow[] {
  return input.alerts.map((a) => ({
    section: 'alerts',
    at: a.lastSeen,
    event: a.kind,
    first_seen: a.firstSeen,
    last_seen: a.lastSeen,
    count: a.count,
    detail: a.summary,
    link: a.path,
  }));
}

function deliveryRows(input: EvidenceInput): EvidenceCsvRow[] {
  return input.deliveries.map((d) => ({
    section: 'alert-deliveries',
    at: d.createdAt,
    event: d.kind,
    state: d.status,
    count: d.attempts,
    detail: d.summary,
    recipient: `${d.channel} ${d.target}`,
    error: d.lastError,
  }));
}

/** Every row of the CSV, section after section (each in time order, the inventory in its own). */
export function evidenceCsvRows(input: EvidenceInput): EvidenceCsvRow[] {
  const cut = Object.entries(input.cut)
    .filter(([, was]) => was)
    .map(([list]) => list);
  return [
    ...inventoryRows(input),
    ...historyRows(input),
    ...input.runs.flatMap(runRows),
    ...alertRows(input),
    ...deliveryRows(input),
    ...(cut.length
      ? [
          {
            section: 'change-log' as const,
            event: 'cut',
            detail: `Lists cut at their limit: ${cut.join(', ')}`,
          },
        ]
      : []),
  ];
}

export function evidenceCsv(input: EvidenceInput): string {
  return csvDocument(EVIDENCE_CSV_COLUMNS, evidenceCsvRows(input));
}

/** The download's name: evidence-<domain>-<from>-<to>.<ext>, with only characters safe in any file system. */
export function evidenceFilename(domainName: string, period: { from: string; to: string }, ext: string) {
  const slug =
    domainName
      .toLowerCase()
      .replace(/[^a-z0-9.-]+/g, '-')
      .replace(/^[.-]+|[.-]+$/g, '')
      .slice(0, 60)
      .replace(/[.-]+$/, '') || 'domain';
  return `evidence-${slug}-${period.from}-${period.to}.${ext}`;
}
