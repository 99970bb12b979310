// Items of the single table and the entities they hold. Every item carries key attributes (pk/sk and each
// index's pair, spelled in keys.ts): they are the table's, never a field of an entity, so they are dropped
// here, in one place, before an item is read as an entity.
import type * as z from 'zod';

const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk']);

/** The item's attributes without its key attributes. */
export function withoutKeys(item: Record<string, unknown>): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const name in item) if (!KEY_ATTRIBUTES.has(name)) rest[name] = item[name];
  return rest;
}

/**
 * How items of one entity are read: keys dropped, the rest parsed with the entity's schema, so an item that
 * does not hold what its type says fails where it is read instead of somewhere downstream.
 */
export const itemReader =
  <S extends z.ZodType>(schema: S) =>
  (item: Record<string, unknown>): z.output<S> =>
    schema.parse(withoutKeys(item));
