// A run's snapshot and its changes, gzip-compressed to fit one DynamoDB item (400 KB) together: the crawler
// hands the snapshot to the writer packed, the writer stores both packed. What does not fit is cut, the
// least telling part first (the pages named per script, then the scripts seen on the fewest pages), and the
// cut is said (`truncated`), never silent. Unpacking stops a gzip bomb and parses by the schema.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { RunChanges } from '@csp/shared/watch/compare';
import type { Drift } from '@csp/shared/watch/drift';
import { type RunSnapshot, runSnapshotSchema } from '@csp/shared/watch/snapshot';

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
  while (data.length > MAX_PACKED_SNAPSHOT_BYTES && s.scripts.length > 0) {
    const kept = [...s.scripts].sort((a, b) => b.pageCount - a.pageCount);
    s = { ...s, scripts: kept.slice(0, Math.floor(kept.length * 0.7)) };
    data = pack(s);
  }
  while (data.length > MAX_PACKED_SNAPSHOT_BYTES && s.headers.length > 0) {
    s = { ...s, headers: s.headers.slice(0, Math.floor(s.headers.length * 0.7)) };
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

/** Written by this code only (the writer), so read back without a schema of its own. */
export function unpackChanges(data: Uint8Array): StoredChanges | null {
  const value = unpackJson(data);
  return value && typeof value === 'object' ? (value as StoredChanges) : null;
}
