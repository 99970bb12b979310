// Where a waiting analysis stands among its user's waiting ones (pending or queued), oldest first: the
// crawl queue serves one user's analyses in order, so the position says how many of theirs go first.
// Analysis ids sort by creation time.

/** 1-based position of `id` among `waitingIds` (itself included if missing), or null if it does not wait. */
export function queuePosition(
  analysis: { id: string; status: string },
  waitingIds: readonly string[],
): number | null {
  if (analysis.status !== 'pending') return null;
  const ahead = new Set(waitingIds.filter((w) => w < analysis.id));
  return ahead.size + 1;
}
