// Field hashes against the crawl: what visitors' browsers reported running (csp-hash: the SHA-256 of each
// script; integrity-violation: a script loaded without integrity), counted per script and digest, and
// each digest judged against the SHA-256 the last crawl computed for that script (the inventory entry's
// `sha256`) and those earlier crawls did (its digest history). Pure: the report consumer writes the counts
// and raises the alerts, the API answers the list.
import * as z from 'zod';
import type { FieldReport } from '../schemas/field-report';
import { byCodeUnits } from '../text/order';
import { fieldScriptKey } from './inventory';

/**
 * match       the last crawl computed this digest for the script
 * earlier     an earlier crawl did (the inventory's digest history): a visitor's cached copy from before
 *             the vendor's update, or a rollback; content a crawl saw, so not an alert
 * unknown     the crawl computed another one and no crawl ever this one: content served to some visitors
 *             only, or tampered (alert)
 * unverified  no crawl digest to compare with (a script only the field reported, or one whose body the
 *             last crawl did not read): not an alert, or every script would alert the day report-sha256 is on
 */
export const DIGEST_VERDICTS = ['match', 'earlier', 'unknown', 'unverified'] as const;
export type DigestVerdict = (typeof DIGEST_VERDICTS)[number];

/** What the crawls computed for one script: the last crawl's SHA-256, and earlier crawls' ones. */
export interface CrawlDigests {
  current: string | null;
  earlier: readonly string[];
}

/** A script's crawl digests from its inventory entry (absent: no crawl saw it). */
export function crawlDigestsOf(
  entry:
    | { sha256?: string | null | undefined; digests: readonly { sha256?: string | undefined }[] }
    | undefined,
): CrawlDigests {
  const current = entry?.sha256 ?? null;
  const earlier = (entry?.digests ?? []).flatMap((d) => (d.sha256 && d.sha256 !== current ? [d.sha256] : []));
  return { current, earlier };
}

export function digestVerdict(crawl: CrawlDigests | null | undefined, digest: string): DigestVerdict {
  if (!crawl?.current) return crawl?.earlier.includes(digest) ? 'earlier' : 'unverified';
  if (crawl.current === digest) return 'match';
  return crawl.earlier.includes(digest) ? 'earlier' : 'unknown';
}

export interface FieldDigestCount {
  scriptKey: string;
  digest: string;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export interface FieldIntegrityCount {
  scriptKey: string;
  count: number;
  /** Of count, reported under Integrity-Policy-Report-Only (the script still ran). */
  reportOnly: number;
  firstSeen: string;
  lastSeen: string;
}

const earlier = (a: string, b: string) => (a < b ? a : b);
const later = (a: string, b: string) => (a > b ? a : b);

/** One count per script and digest, and per script for integrity violations, in the order first met. */
export function aggregateFieldReports(reports: readonly FieldReport[]): {
  digests: FieldDigestCount[];
  integrity: FieldIntegrityCount[];
} {
  const digests = new Map<string, FieldDigestCount>();
  const integrity = new Map<string, FieldIntegrityCount>();
  for (const r of reports) {
    const scriptKey = fieldScriptKey(r.scriptUrl);
    if (scriptKey === null) continue;
    if (r.kind === 'hash') {
      const id = `${scriptKey}\n${r.digest}`;
      const g = digests.get(id);
      if (g) {
        g.count += 1;
        g.firstSeen = earlier(g.firstSeen, r.reportedAt);
        g.lastSeen = later(g.lastSeen, r.reportedAt);
      } else {
        digests.set(id, {
          scriptKey,
          digest: r.digest,
          count: 1,
          firstSeen: r.reportedAt,
          lastSeen: r.reportedAt,
        });
      }
    } else {
      const g = integrity.get(scriptKey);
      const reportOnly = r.reportOnly ? 1 : 0;
      if (g) {
        g.count += 1;
        g.reportOnly += reportOnly;
        g.firstSeen = earlier(g.firstSeen, r.reportedAt);
        g.lastSeen = later(g.lastSeen, r.reportedAt);
      } else {
        integrity.set(scriptKey, {
          scriptKey,
          count: 1,
          reportOnly,
          firstSeen: r.reportedAt,
          lastSeen: r.reportedAt,
        });
      }
    }
  }
  return { digests: [...digests.values()], integrity: [...integrity.values()] };
}

/** What the API answers: per script, the digests visitors reported and how many loaded it without integrity. */
export const fieldDigestSchema = z.object({
  digest: z.string(),
  count: z.number().int().nonnegative(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  verdict: z.enum(DIGEST_VERDICTS),
});
export type FieldDigest = z.infer<typeof fieldDigestSchema>;

export const fieldScriptSchema = z.object({
  key: z.string(),
  /** The last crawl's SHA-256 of the script (null: none known). */
  crawlSha256: z.string().nullable(),
  digests: z.array(fieldDigestSchema),
  /** Reports of further digests, beyond the per-script cap: counted, not kept one by one. */
  otherDigestReports: z.number().int().nonnegative(),
  integrity: z
    .object({
      count: z.number().int().nonnegative(),
      reportOnly: z.number().int().nonnegative(),
      firstSeen: z.string(),
      lastSeen: z.string(),
    })
    .nullable(),
});
export type FieldScript = z.infer<typeof fieldScriptSchema>;

export const fieldDigestListSchema = z.object({
  scripts: z.array(fieldScriptSchema),
  /** Reports about scripts beyond the per-domain cap: counted, not kept one by one. */
  otherScriptReports: z.number().int().nonnegative(),
});
export type FieldDigestList = z.infer<typeof fieldDigestListSchema>;

/** The counters as stored (one script item with its digest items), for fieldDigestList. */
export interface CountedFieldScript {
  script: {
    key: string;
    otherDigestReports?: number | undefined;
    integrity?: number | undefined;
    integrityReportOnly?: number | undefined;
    integrityFirstSeen?: string | undefined;
    integrityLastSeen?: string | undefined;
  };
  digests: { digest: string; count: number; firstSeen: string; lastSeen: string }[];
}

const VERDICT_ORDER: Record<DigestVerdict, number> = { unknown: 0, unverified: 1, earlier: 2, match: 3 };

/**
 * The list the API answers: every script with its digests judged against `crawlDigests(key)`; scripts with
 * a digest no crawl saw first, then the rest by URL; each script's digests most reported first.
 */
export function fieldDigestList(
  counted: { scripts: readonly CountedFieldScript[]; otherScriptReports: number },
  crawlDigests: (key: string) => CrawlDigests,
): FieldDigestList {
  const scripts: FieldScript[] = counted.scripts.map(({ script: i, digests }) => {
    const crawl = crawlDigests(i.key);
    return {
      key: i.key,
      crawlSha256: crawl.current,
      digests: digests
        .map((d) => ({ ...d, verdict: digestVerdict(crawl, d.digest) }))
        .sort((a, b) => VERDICT_ORDER[a.verdict] - VERDICT_ORDER[b.verdict] || b.count - a.count),
      otherDigestReports: i.otherDigestReports ?? 0,
      integrity:
        i.integrity && i.integrityFirstSeen && i.integrityLastSeen
          ? {
              count: i.integrity,
              reportOnly: i.integrityReportOnly ?? 0,
              firstSeen: i.integrityFirstSeen,
              lastSeen: i.integrityLastSeen,
            }
          : null,
    };
  });
  const unknownFirst = (s: FieldScript) => (s.digests.some((d) => d.verdict === 'unknown') ? 0 : 1);
  scripts.sort((a, b) => unknownFirst(a) - unknownFirst(b) || byCodeUnits(a.key, b.key));
  return { scripts, otherScriptReports: counted.otherScriptReports };
}
