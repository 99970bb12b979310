// Maps keyed by what users and browsers send (directive names, report fields). A plain object is a poor
// map for them: `rules['constructor']` answers Object's constructor for a key nobody set, and
// `out['__proto__'] = v` replaces `out`'s prototype instead of storing a key. One rule for every such map:
// build it without a prototype, read it by own key only, and, where a schema decides what a key may be,
// refuse the names every object already answers to.

/**
 * Names an object answers to without owning them: Object.prototype's (`constructor`, `toString`,
 * `hasOwnProperty`, `__proto__`…) and `prototype` (a function's: the other half of `constructor.prototype`).
 */
export function isInheritedName(key: string): boolean {
  return key === 'prototype' || key === '__proto__' || Object.hasOwn(Object.prototype, key);
}

/**
 * A map without a prototype (empty, or a copy of `from`'s own entries): a key is there only once set, and
 * `__proto__` is a key like any other. JSON.stringify, Object.entries and the DynamoDB marshaller read it
 * like a plain object.
 */
export function dictionary<T>(from?: Readonly<Record<string, T>>): Record<string, T> {
  // Object.assign sets each key on the new object, which has no `__proto__` setter to trigger.
  return Object.assign(Object.create(null) as Record<string, T>, from);
}

/** The value stored under `key` in a map, never one inherited from Object.prototype. */
export function ownValue<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/** The first inherited name among a parsed JSON object's own keys (JSON.parse keeps `__proto__` as one). */
export function firstInheritedKey(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.keys(value).find(isInheritedName);
}
