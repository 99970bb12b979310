// A run's snapshot and its changes, gzip-compressed to fit one DynamoDB item (400 KB) together: the crawler
// hands the snapshot to the writer packed, the writer stores both packed. What does not fit is cut, the
// least telling part first (the pages named per script, then the scripts seen on the fewest pages), and the
// cut is said (`truncated`), never silent. Unpacking stops a gzip bomb and parses by the schema.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RunChanges } from '@csp/shared/watch/compare';
import type { Drift } from '@csp/shared/watch/drift';
import { SECURITY_HEADERS } from '@csp/shared/watch/security-headers';
import { type RunSnapshot, runSnapshotSchema, watchedScriptSchema } from '@csp/shared/watch/snapshot';
import * as z from 'zod';

/** The snapshot packed (with the changes beside it, the item stays well under 400 KB). */
export const MAX_PACKED_SNAPSHOT_BYTES = 200 * 1024;
/** The changes and drift packed. */
export const MAX_PACKED_CHANGES_BYTES = 150 * 1024;
const MAX_UNPACKED_BYTES = 32 * 1024 * 1024;

const pack = (value: unknown) => gzipSync(JSON.stringify(value));

export function packSnapshot(snapshot: RunSnapshot): Buffer {
  let s = snapshot;
  let data = pack(s);
  let pagesPerScript = 50;
  while (data.length > MAX_PACKED_SNAPSHOT_BYTES && pagesPerScript > 0) {
    pagesPerScript = Math.floor(pagesPerScript / 4);
    s = { ...s, scripts: s.scripts.map((x) => ({ ...x, pages: x.pages.slice(0, pagesPerScript) })) };
    data = pack(s);
  }
  // Then scripts (the least widely seen go) and pages' headers together, so neither pushes the other out.
  while (data.length > MAX_PACKED_SNAPSHOT_BYTES && (s.scripts.length > 0 || s.headers.length > 0)) {
    const kept = [...s.scripts].sort((a, b) => b.pageCount - a.pageCount);
    s = {
      ...s,
      scripts: kept.slice(0, Math.floor(kept.length * 0.7)),
      headers: s.headers.slice(0, Math.floor(s.headers.length * 0.7)),
    };
    data = pack(s);
  }
  return data;
}

function unpackJson(data: Uint8Array): unknown {
  try {
    return JSON.parse(gunzipSync(data, { maxOutputLength: MAX_UNPACKED_BYTES }).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The snapshot in packed bytes, or null when they are not a valid one. */
export function unpackSnapshot(data: Uint8Array): RunSnapshot | null {
  const parsed = runSnapshotSchema.safeParse(unpackJson(data));
  return parsed.success ? parsed.data : null;
}

/** What is stored of a compared run: its changes (null for a domain's first watched run) and its drift. */
export interface StoredChanges {
  changes: RunChanges | null;
  drift: Drift | null;
  /** Lists were cut to fit the item (the counts stay whole). */
  truncated: boolean;
}

export function packChanges(value: Omit<StoredChanges, 'truncated'>): Buffer {
  let v: StoredChanges = { ...value, truncated: false };
  let data = pack(v);
  let keep = 1_000;
  while (data.length > MAX_PACKED_CHANGES_BYTES && keep >= 1) {
    v = cutChanges(v, keep);
    data = pack(v);
    keep = Math.floor(keep / 4);
  }
  return data;
}

function cutChanges(v: StoredChanges, keep: number): StoredChanges {
  const c = v.changes;
  return {
    truncated: true,
    changes: c && {
      scripts: {
        added: c.scripts.added.slice(0, keep).map((s) => ({ ...s, pages: s.pages.slice(0, 5) })),
        changed: c.scripts.changed.slice(0, keep),
        removed: c.scripts.removed.slice(0, keep).map((s) => ({ ...s, pages: s.pages.slice(0, 5) })),
      },
      origins: c.origins.slice(0, keep),
      policy: c.policy.slice(0, keep),
      headers: c.headers.slice(0, keep).map((h) => ({ ...h, pages: h.pages.slice(0, keep) })),
    },
    drift: v.drift && {
      ...v.drift,
      variants: v.drift.variants.slice(0, keep).map((x) => ({ ...x, pages: x.pages.slice(0, keep) })),
    },
  };
}

const directiveDiffSchema = z.object({
  directive: z.string(),
  change: z.enum(['added', 'removed', 'changed']),
  added: z.array(z.string()),
  removed: z.array(z.string()),
});
const storedChangesSchema = z.object({
  changes: z
    .object({
      scripts: z.object({
        added: z.array(watchedScriptSchema),
        changed: z.array(z.object({ before: watchedScriptSchema, after: watchedScriptSchema })),
        removed: z.array(watchedScriptSchema),
      }),
      origins: z.array(directiveDiffSchema),
      policy: z.array(directiveDiffSchema),
      headers: z.array(
        z.object({
          header: z.enum(SECURITY_HEADERS),
          change: z.enum(['added', 'removed', 'changed']),
          before: z.string().nullable(),
          after: z.string().nullable(),
          pages: z.array(z.string()),
        }),
      ),
    })
    .nullable(),
  drift: z
    .object({
      state: z.enum(['matches', 'differs', 'none-served']),
      header: z.enum(['content-security-policy', 'content-security-policy-report-only']),
      variants: z.array(
        z.object({
          served: z.string().nullable(),
          pages: z.array(z.string()),
          differences: z.array(directiveDiffSchema),
        }),
      ),
    })
    .nullable(),
  truncated: z.boolean(),
}) satisfies z.ZodType<StoredChanges>;

/** The stored changes, or null when the bytes are not a valid record of them. */
export function unpackChanges(data: Uint8Array): StoredChanges | null {
  const parsed = storedChangesSchema.safeParse(unpackJson(data));
  return parsed.success ? parsed.data : null;
}
