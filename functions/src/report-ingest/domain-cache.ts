// Which domain a report's uuid names, cached briefly: a flood of reports (or of made-up uuids) costs one
// table read per uuid and minute, not one per request.
import { siteHost } from '@csp/shared/reports/noise';
import type { Db } from '../store/db';
import { getDomainByUuid } from '../store/domains';

export interface ReportDomain {
  id: string;
  uuid: string;
  /** Host the domain's documents are recognised by (see siteHost). */
  site: string;
}

export class DomainCache {
  private readonly entries = new Map<string, { value: ReportDomain | null; until: number }>();
  private readonly loading = new Map<string, Promise<ReportDomain | null>>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 60_000,
    private readonly missTtlMs = 30_000,
    private readonly maxKeys = 50_000,
  ) {}

  /** What get() would answer from the cache alone: undefined when it would read the table. */
  cached(uuid: string, now = Date.now()): ReportDomain | null | undefined {
    const hit = this.entries.get(uuid);
    return hit && hit.until > now ? hit.value : undefined;
  }

  /** The active domain with this uuid, or null (unknown, inactive or deleted). */
  async get(uuid: string, now = Date.now()): Promise<ReportDomain | null> {
    const hit = this.entries.get(uuid);
    if (hit && hit.until > now) return hit.value;
    const inFlight = this.loading.get(uuid);
    if (inFlight) return inFlight;
    const load = this.load(uuid).finally(() => this.loading.delete(uuid));
    this.loading.set(uuid, load);
    const value = await load;
    if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(uuid, { value, until: now + (value ? this.ttlMs : this.missTtlMs) });
    return value;
  }

  private async load(uuid: string): Promise<ReportDomain | null> {
    const d = await getDomainByUuid(this.db, uuid);
    if (!d?.isActive) return null;
    return { id: d.id, uuid: d.uuid, site: siteHost(d.url) };
  }
}
