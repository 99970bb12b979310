import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBlobKey } from './blob-store';
import { LocalBlobStore } from './local-blob-store';

describe('LocalBlobStore', () => {
  let dir: string;
  let store: LocalBlobStore;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'blobs-'));
    store = new LocalBlobStore(dir);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores, reads back, overwrites and deletes', async () => {
    expect(await store.get('crawls/a/state.json')).toBeNull();
    await store.put('crawls/a/state.json', '{"v":1}');
    expect((await store.get('crawls/a/state.json'))?.toString()).toBe('{"v":1}');
    await store.put('crawls/a/state.json', new Uint8Array([1, 2, 3]));
    expect([...((await store.get('crawls/a/state.json')) ?? [])]).toEqual([1, 2, 3]);
    // No temporary files are left behind.
    expect(await readdir(join(dir, 'crawls', 'a'))).toEqual(['state.json']);
    await store.delete('crawls/a/state.json');
    expect(await store.get('crawls/a/state.json')).toBeNull();
    await store.delete('crawls/a/state.json');
  });

  it.each(['../escape', '/abs', 'a//b', 'a/./b', 'a\\b', ''])('refuses the key %j', async (key) => {
    expect(() => assertBlobKey(key)).toThrow(/Invalid blob key/);
    await expect(store.put(key, 'x')).rejects.toThrow(/Invalid blob key/);
  });
});
