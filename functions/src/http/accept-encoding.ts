// Which content coding a client accepts, read from its Accept-Encoding header (RFC 9110 §12.5.3): a coding
// is accepted when it, or `*`, is listed without `q=0`; an explicit entry wins over `*`.

/** The first of `offered` (in the server's order of preference) the header accepts, else undefined. */
export function acceptedEncoding<T extends string>(
  header: string | undefined,
  offered: readonly T[],
): T | undefined {
  const weights = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  return offered.find((coding) => (weights.get(coding) ?? weights.get('*') ?? 0) > 0);
}
