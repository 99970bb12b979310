// Items become entities in one way: key attributes dropped, the rest parsed with the entity's schema.

import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { itemReader, withoutKeys } from './items';
import { sessionFromItem } from './sessions';

const KEYS = {
  pk: 'SESSION#s1',
  sk: 'SESSION',
  gsi1pk: 'OWNER#u1#SESSION',
  gsi1sk: 's1',
  gsi2pk: 'g2',
  gsi2sk: 'g2s',
  gsi3pk: 'TYPE#X',
  gsi3sk: 'x',
};

describe('items', () => {
  it('drops every key attribute of the table and keeps every other attribute', () => {
    expect(withoutKeys({ ...KEYS, id: 'a', pkg: 'kept', sks: 1, nested: { pk: 'kept' } })).toEqual({
      id: 'a',
      pkg: 'kept',
      sks: 1,
      nested: { pk: 'kept' },
    });
  });

  it('reads an item with its schema: keys gone, fields typed', () => {
    const session = { sid: 's1', userId: 'u1', sess: { a: 1 }, expiresAt: 2_000_000_000, createdAt: 'now' };
    expect(sessionFromItem({ ...KEYS, ...session })).toEqual(session);
  });

  it('refuses an item that does not hold what its entity needs, instead of casting it', () => {
    expect(() => sessionFromItem({ ...KEYS, sid: 's1', sess: {}, expiresAt: 1, createdAt: 'now' })).toThrow(
      z.ZodError,
    );
    expect(() => itemReader(z.object({ n: z.number() }))({ n: 'one' })).toThrow(z.ZodError);
  });

  it('a schema that keeps unknown attributes still never sees the keys', () => {
    const read = itemReader(z.record(z.string(), z.number()));
    expect(read({ ...KEYS, domains: 2, analyses: 5 })).toEqual({ domains: 2, analyses: 5 });
  });
});
