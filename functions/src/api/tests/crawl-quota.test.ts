import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { startFixtureSites } from '../../crawler/fixtures/sites';
import type { LocalServer } from '../../local/server';
import { createLogger } from '../../logger';
import { createDeadLetterHandler } from '../../queue/dead-letter';
import { analysisKey } from '../../store/keys';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { loopbackCrawlHandler } from '../../testing/crawl-handler';
import type { HttpClient } from '../../testing/http-client';
import { perTestServers } from '../../testing/per-test-servers';
import { sqsRecord } from '../../testing/sqs-events';

const WAITING = 'You already have 20 analyses waiting; wait for some to finish';
const live = perTestServers();

/** A server whose crawl queue delivers to nothing: started analyses stay pending, as behind a long queue. */
const idleServer = (env: Record<string, string> = {}) =>
  startTestServer({ env, crawlHandler: () => async () => ({ batchItemFailures: [] }) });

// Never crawled (the queue delivers to nothing); a discard port on loopback in any case.
const start = (client: HttpClient, maxPages = 1) =>
  client.post('/api/csp/analyze', { url: 'http://127.0.0.1:9/', maxPages, crawlDelay: 0 });

async function deadLetter(s: LocalServer, analysisId: string) {
  const handler = createDeadLetterHandler(s.deps.db, createLogger('silent'));
  await handler({ Records: [sqsRecord(JSON.stringify({ analysisId }), { receives: 3 })] });
}

describe('waiting analyses per user', () => {
  it('accepts exactly 20 of 50 parallel starts, refuses 30 with the message, and shows each place', async () => {
    live.server = await idleServer();
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const answers = await Promise.all(Array.from({ length: 50 }, () => start(client)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 201)).toHaveLength(20);
    expect(statuses.filter((x) => x === 429)).toHaveLength(30);
    const refused = await Promise.all(answers.filter((r) => r.status === 429).map((r) => r.json()));
    expect(new Set(refused.map((b) => b.message))).toEqual(new Set([WAITING]));

    // Each waiting analysis has its place, oldest first, in the list and in the single answer.
    const list = (await (await client.get('/api/csp-analyses')).json()) as {
      id: string;
      queuePosition: number;
    }[];
    expect(list).toHaveLength(20);
    const byAge = [...list].sort((a, b) => a.id.localeCompare(b.id));
    expect(byAge.map((a) => a.queuePosition)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const third = byAge[2]!;
    const one = await (await client.get(`/api/csp/analyze/${third.id}`)).json();
    expect(one.analysis).toMatchObject({ status: 'pending', queuePosition: 3 });

    // Per user: another user starts at once. The domain route counts against the same limit.
    const other = await registeredClient(s.url);
    expect((await start(other.client)).status).toBe(201);
    const domain = await (
      await client.post('/api/domains', { name: 'D', url: 'http://127.0.0.1:9/' })
    ).json();
    const viaDomain = await client.post('/api/csp-analyses', { domainId: domain.id, crawlRequest: {} });
    expect(viaDomain.status).toBe(429);
    expect((await viaDomain.json()).message).toBe(WAITING);

    // An analysis that ends gives its place back (here: failed on the dead-letter path), and the others move up.
    await deadLetter(s, byAge[0]!.id);
    const again = await start(client);
    expect(again.status).toBe(201);
    const after = await (await client.get(`/api/csp/analyze/${third.id}`)).json();
    expect(after.analysis.queuePosition).toBe(2);
    expect((await start(client)).status).toBe(429);
  }, 60_000);

  it('heals a place a crash left taken: an analysis that ended without releasing it no longer counts', async () => {
    live.server = await idleServer();
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await (await start(client)).json()).analysisId);
    expect((await start(client)).status).toBe(429);
    // The analysis completes by a write that never reached the quota (a crawler that died in between).
    await s.deps.db.doc.send(
      new UpdateCommand({
        TableName: s.deps.db.table,
        Key: analysisKey(ids[5]!),
        UpdateExpression: 'SET #s = :c',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':c': 'completed' },
      }),
    );
    expect((await start(client)).status).toBe(201);
    expect((await start(client)).status).toBe(429);
  }, 60_000);
});

describe('daily page budget', () => {
  it('refuses a start whose pages do not fit today, with when it resets', async () => {
    live.server = await idleServer({ CRAWL_DAILY_PAGES: '120' });
    const { client } = await registeredClient(live.server.url);
    const big = await start(client, 100);
    expect(big.status).toBe(201);
    const over = await start(client, 30);
    expect(over.status).toBe(429);
    const { message } = await over.json();
    expect(message).toMatch(/^Daily page budget reached: .* 100 of 120 pages today .* needs up to 30 /);
    expect(message).toContain('resets at 00:00 UTC');
    // What still fits is accepted; nothing was half-written by the refusal.
    expect((await start(client, 20)).status).toBe(201);
    expect((await start(client, 1)).status).toBe(429);
    expect(await (await client.get('/api/csp-analyses')).json()).toHaveLength(2);
    // A failed analysis that never crawled gives all of its pages back.
    await deadLetter(live.server, (await big.json()).analysisId);
    expect((await start(client, 100)).status).toBe(201);
    expect((await start(client, 1)).status).toBe(429);
    // Another user has a budget of their own.
    const other = await registeredClient(live.server.url);
    expect((await start(other.client, 120)).status).toBe(201);
  }, 60_000);

  it('gives back the pages a completed crawl did not visit', async () => {
    live.sites = await startFixtureSites({
      mainOnly: () => ({ '/': { type: 'text/html', body: '<!doctype html><title>one page</title>' } }),
    });
    const url = `${live.sites.origins.main}/`;
    live.server = await startTestServer({
      env: { CRAWL_DAILY_PAGES: '100' },
      crawlHandler: (deps) => loopbackCrawlHandler(deps, live.blobDir, { crawlOptions: { rerender: false } }),
    });
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const analyze = (maxPages: number) => client.post('/api/csp/analyze', { url, maxPages, crawlDelay: 0 });
    const first = await analyze(100);
    expect(first.status).toBe(201);
    expect((await analyze(1)).status).toBe(429);
    await s.queue.idle();
    const done = await (await client.get(`/api/csp/analyze/${(await first.json()).analysisId}`)).json();
    expect(done.analysis).toMatchObject({ status: 'completed', totalPages: 1, queuePosition: null });
    // The one-page site used 1 of the 100 reserved: 99 are back.
    expect((await analyze(100)).status).toBe(429);
    expect((await analyze(99)).status).toBe(201);
  }, 120_000);
});
