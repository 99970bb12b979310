// The alerts a completed, compared run raises (the watch's change detection, PCI DSS 11.6.1): one per kind
// and run, naming what changed, rather than one per script or page — fifty scripts changed by one deploy
// are one message. Drift is the exception: its cause is what the site serves, so the same drift seen run
// after run is one alert, counted, until the served policy changes again.

import { byCodeUnits } from '../text/order';
import type { RunChanges } from '../watch/compare';
import type { Drift } from '../watch/drift';
import type { InventoryEntry } from '../watch/inventory';
import type { WatchedScript } from '../watch/snapshot';
import type { AlertKind } from './alert';

export interface RunAlert {
  kind: Extract<AlertKind, 'script-added' | 'script-changed' | 'script-pending' | 'header-changed' | 'drift'>;
  cause: string;
  summary: string;
}

/** Scripts named in a summary; the rest are counted. */
const NAMED = 3;
const NAME_CHARS = 120;

const HEADER_NAMES: Record<string, string> = {
  'content-security-policy': 'Content-Security-Policy',
  'content-security-policy-report-only': 'Content-Security-Policy-Report-Only',
  'strict-transport-security': 'Strict-Transport-Security',
  'x-frame-options': 'X-Frame-Options',
  'permissions-policy': 'Permissions-Policy',
  'referrer-policy': 'Referrer-Policy',
  'x-content-type-options': 'X-Content-Type-Options',
  'integrity-policy': 'Integrity-Policy',
  'integrity-policy-report-only': 'Integrity-Policy-Report-Only',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function scriptName(s: WatchedScript): string {
  const name = s.url ?? `${s.kind} script ${s.digest.slice(0, 18)}…`;
  const party =
    s.party === 'first' ? '' : ` (${s.party} party${s.initiator ? `, loaded by ${s.initiator}` : ''})`;
  return `${name}${party}`.slice(0, NAME_CHARS);
}

function names(scripts: WatchedScript[]): string {
  const named = scripts.slice(0, NAMED).map(scriptName).join(', ');
  return scripts.length > NAMED ? `${named} and ${scripts.length - NAMED} more` : named;
}

/**
 * A short fingerprint of what is served (FNV-1a, two 32-bit lanes): a cause must stay short, and this only
 * tells one served value from another (shared code runs in browsers too: no node:crypto).
 */
function digestOf(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

export function alertsFromRun(input: {
  analysisId: string;
  changes: RunChanges | null;
  drift: Drift | null;
}): RunAlert[] {
  const alerts: RunAlert[] = [];
  const { analysisId, changes, drift } = input;
  if (changes) {
    const { added, changed } = changes.scripts;
    if (added.length > 0) {
      alerts.push({
        kind: 'script-added',
        cause: `run:${analysisId}`,
        summary: `${plural(added.length, 'new script')}: ${names(added)}`,
      });
    }
    if (changed.length > 0) {
      alerts.push({
        kind: 'script-changed',
        cause: `run:${analysisId}`,
        summary: `${plural(changed.length, 'script')} changed content: ${names(changed.map((c) => c.after))}`,
      });
    }
    if (changes.headers.length > 0) {
      const parts = changes.headers.map(
        (h) => `${HEADER_NAMES[h.header] ?? h.header} ${h.change} on ${plural(h.pages.length, 'page')}`,
      );
      alerts.push({
        kind: 'header-changed',
        cause: `run:${analysisId}`,
        summary:
          parts.slice(0, NAMED).join('; ') + (parts.length > NAMED ? `; ${parts.length - NAMED} more` : ''),
      });
    }
  }
  if (drift && drift.state !== 'matches') {
    const header = HEADER_NAMES[drift.header];
    const served = drift.variants.map((v) => v.served ?? '').sort();
    const differing = drift.variants.filter((v) => v.served !== null && v.differences.length > 0);
    const pages = differing.reduce((n, v) => n + v.pages.length, 0);
    const first = differing[0]?.differences[0];
    const example = first
      ? ` (${first.directive}${first.added.length ? ` +${first.added.slice(0, 2).join(' +')}` : ''}${first.removed.length ? ` -${first.removed.slice(0, 2).join(' -')}` : ''})`
      : '';
    alerts.push({
      kind: 'drift',
      cause: `drift:${drift.state}:${digestOf(served.join('\n'))}`,
      summary:
        drift.state === 'none-served'
          ? `The site serves no ${header} header, while the saved configuration is active`
          : `The ${header} served on ${plural(pages, 'page')} differs from the saved configuration${example}`,
    });
  }
  return alerts;
}

const DAY = 86_400_000;

/** Since when a pending script has waited: since its current content was first seen. */
function pendingSince(entry: Pick<InventoryEntry, 'digest' | 'digests' | 'firstSeen'>): string {
  return entry.digests.find((d) => d.digest === entry.digest)?.firstSeen ?? entry.firstSeen;
}

/**
 * "Script pending review for more than N days": one alert for all such scripts, grouped by which scripts
 * they are (the same ones still waiting are counted, and sent again a day later; one more makes it news).
 */
export function pendingReviewAlert(
  entries: readonly Pick<
    InventoryEntry,
    'key' | 'kind' | 'url' | 'party' | 'initiator' | 'digest' | 'digests' | 'firstSeen' | 'state'
  >[],
  pendingDays: number,
  now: number,
): RunAlert | null {
  const waiting = entries
    .filter((e) => e.state === 'pending' && now - Date.parse(pendingSince(e)) > pendingDays * DAY)
    .sort((a, b) => byCodeUnits(a.key, b.key));
  if (waiting.length === 0) return null;
  const named = waiting.slice(0, NAMED).map((e) => (e.url ?? `${e.kind} script`).slice(0, NAME_CHARS));
  const rest = waiting.length > NAMED ? ` and ${waiting.length - NAMED} more` : '';
  return {
    kind: 'script-pending',
    cause: `pending:${pendingDays}:${digestOf(waiting.map((e) => `${e.key}\n${e.digest}`).join('\n'))}`,
    summary: `${plural(waiting.length, 'script')} pending review for more than ${plural(pendingDays, 'day')}: ${named.join(', ')}${rest}`,
  };
}
