// Ordering of machine text (ISO timestamps, directive names, keys, URLs): by UTF-16 code units, the same in
// every browser, locale and runtime. localeCompare is for words people read: it orders by the runtime's
// locale, and its first call on a page loads the collation data (50 ms on a phone), which ISO dates and
// directive names never need.
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
