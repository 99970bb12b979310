// Exact repeats of a report from one client within a short window (a page reloaded, a retried upload)
// are noise: each counts once. Kept in memory per process, bounded, keyed by a hash (no address stored).
import { hash } from 'node:crypto';
import type { FieldReport } from '@csp/shared/schemas/field-report';
import type { NormalizedReport } from '@csp/shared/schemas/report';

/** Every field of a report but its time (a Reporting API report's time moves with its age). */
const CONTENT_FIELDS = [
  'documentUri',
  'referrer',
  'blockedUri',
  'violatedDirective',
  'effectiveDirective',
  'originalPolicy',
  'disposition',
  'statusCode',
  'scriptSample',
  'lineNumber',
  'columnNumber',
  'sourceFile',
  'userAgent',
] as const;
// A field added to NormalizedReport and not to CONTENT_FIELDS does not compile.
type Unlisted = Exclude<keyof NormalizedReport, 'reportedAt' | (typeof CONTENT_FIELDS)[number]>;
const everyField: [Unlisted] extends [never] ? true : Unlisted = true;
void everyField;

/**
 * The fields in a fixed order, as an array: JSON.stringify writes it faster than a copy of the report
 * without `reportedAt`. An absent field is written as null, so absent and '' stay different.
 */
function reportContent(r: NormalizedReport): unknown[] {
  const values = new Array<unknown>(CONTENT_FIELDS.length);
  for (let i = 0; i < CONTENT_FIELDS.length; i++) values[i] = r[CONTENT_FIELDS[i]!];
  return values;
}

export class RepeatFilter {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 200_000,
  ) {}

  /** True when the same client sent the same report within the window (and records it otherwise). */
  isRepeat(client: string, report: NormalizedReport, now = Date.now()): boolean {
    return this.seenBefore(client, reportContent(report), now);
  }

  /**
   * The same for a field-hash report, every field but its time (Chromium sends an integrity violation
   * twice for one script load: the preload scanner's request and the parser's).
   */
  isFieldRepeat(client: string, report: FieldReport, now = Date.now()): boolean {
    const { reportedAt: _time, ...content } = report;
    return this.seenBefore(client, ['field', ...Object.values(content)], now);
  }

  private seenBefore(client: string, content: unknown[], now: number): boolean {
    // One-shot SHA-1: a key, not a secret (a collision costs one report's count); the fastest of Node's.
    const key = hash('sha1', `${client}\n${JSON.stringify(content)}`, 'base64url');
    const until = this.seen.get(key);
    if (until !== undefined) {
      if (until > now) return true;
      // Expired: set again below, at the end of the Map's order (eviction goes oldest first).
      this.seen.delete(key);
    }
    if (this.seen.size >= this.maxKeys) this.evict(now);
    this.seen.set(key, now + this.windowMs);
    return false;
  }

  private evict(now: number) {
    for (const [k, until] of this.seen) {
      if (until <= now || this.seen.size >= this.maxKeys) this.seen.delete(k);
      else break;
    }
  }
}
