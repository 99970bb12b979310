// Users are served round-robin: one user with 20 analyses waiting does not hold back another user's new
// one for more than one analysis per free slot. The real API, the local queue, DynamoDB Local, Chromium and
// a one-page loopback site (maxPages 1, so each crawl is short).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { LocalServer } from '../local/server';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import type { HttpClient } from '../testing/http-client';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';

const blobDir = mkdtempSync(join(tmpdir(), 'csp-blobs-'));
let server: LocalServer | undefined;
let sites: FixtureSites | undefined;
afterAll(async () => {
  await server?.close();
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

interface Shown {
  id: string;
  status: string;
  createdAt: string;
  completedAt: string | null;
}

it("runs another user's analysis before the first user's 20 waiting ones drain", async () => {
  sites = await startFixtureSites({
    mainOnly: () => ({
      '/': { type: 'text/html', body: '<!doctype html><title>one</title><p>one page</p>' },
    }),
  });
  const url = `${sites.origins.main}/`;
  server = await startTestServer({
    crawlHandler: (deps) =>
      loopbackCrawlHandler(deps, blobDir, {
        crawlOptions: { rerender: false, interactionBudgetMs: 0 },
        queuedRecheckSeconds: 1,
      }),
  });
  const s = server;
  const analyze = async (client: HttpClient) => {
    const res = await client.post('/api/csp/analyze', { url, maxPages: 1, crawlDelay: 0 });
    expect(res.status).toBe(201);
    return (await res.json()).analysisId as string;
  };
  const first = await registeredClient(s.url);
  const second = await registeredClient(s.url);
  const theirs: string[] = [];
  for (let i = 0; i < 20; i++) theirs.push(await analyze(first.client));
  // The first user's crawls are under way (both queue slots busy with them) when the second user starts.
  const list = async (client: HttpClient) =>
    (await (await client.get('/api/csp-analyses')).json()) as Shown[];
  await expect
    .poll(async () => (await list(first.client)).filter((a) => a.status === 'completed').length, {
      timeout: 60_000,
      interval: 200,
    })
    .toBeGreaterThanOrEqual(1);
  const mine = await analyze(second.client);
  await s.queue.idle();

  const a = await list(first.client);
  const [b] = await list(second.client);
  expect(b).toMatchObject({ id: mine, status: 'completed' });
  expect(a.map((x) => x.status)).toEqual(Array(20).fill('completed'));
  const done = (x: Shown) => Date.parse(x.completedAt!);
  const bCreated = Date.parse(b!.createdAt);
  // What finished of the first user's while the second user's analysis waited and ran: the crawls under way
  // when it arrived (2 queue slots) and at most one more running beside it.
  const finishedMeanwhile = a.filter((x) => done(x) > bCreated && done(x) <= done(b!)).length;
  expect(finishedMeanwhile).toBeLessThanOrEqual(3);
  // The first user's queue was far from drained: most of theirs finished after it.
  expect(a.filter((x) => done(x) > done(b!)).length).toBeGreaterThanOrEqual(10);
}, 300_000);
