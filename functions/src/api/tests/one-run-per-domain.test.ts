import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { startFixtureSites } from '../../crawler/fixtures/sites';
import type { LocalServer } from '../../local/server';
import { createLogger } from '../../logger';
import { createDeadLetterHandler } from '../../queue/dead-letter';
import { deleteAnalysisCascade } from '../../store/analyses';
import { DOMAIN_BUSY_MESSAGE } from '../../store/domain-run-guard';
import { analysisKey } from '../../store/keys';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { loopbackCrawlHandler } from '../../testing/crawl-handler';
import type { HttpClient } from '../../testing/http-client';
import { perTestServers } from '../../testing/per-test-servers';
import { sqsRecord } from '../../testing/sqs-events';

const live = perTestServers();

/** A server whose crawl queue delivers to nothing: started analyses stay pending, as behind a long queue. */
const idleServer = () => startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });

async function newDomain(client: HttpClient, url = 'http://127.0.0.1:9/') {
  const res = await client.post('/api/domains', { name: 'Site', url });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

const startFor = (client: HttpClient, domainId: string) =>
  client.post('/api/csp-analyses', { domainId, crawlRequest: { maxPages: 1, crawlDelay: 0 } });

async function setFields(s: LocalServer, id: string, fields: Record<string, unknown>) {
  const names = Object.keys(fields);
  await s.deps.db.doc.send(
    new UpdateCommand({
      TableName: s.deps.db.table,
      Key: analysisKey(id),
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
      ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, fields[n]])),
    }),
  );
}

describe('one analysis of a domain at a time', () => {
  it('accepts one of parallel starts for a domain and refuses the others with 409 and the reason', async () => {
    live.server = await idleServer();
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const domain = await newDomain(client);
    const answers = await Promise.all(Array.from({ length: 3 }, () => startFor(client, domain.id)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409]);
    const started = (await answers.find((r) => r.status === 201)!.json()) as { id: string };
    for (const refused of answers.filter((r) => r.status === 409)) {
      expect(await refused.json()).toEqual({ message: DOMAIN_BUSY_MESSAGE, analysisId: started.id });
    }
    // Nothing was half-written by the refusals: one analysis in the history.
    const list = await (await client.get(`/api/domains/${domain.id}/analyses`)).json();
    expect(list).toHaveLength(1);

    // Per domain: another domain of the same user starts at once.
    expect((await startFor(client, (await newDomain(client)).id)).status).toBe(201);

    // A failed analysis frees its domain (the dead-letter path).
    const handler = createDeadLetterHandler(s.deps.db, createLogger('silent'));
    await handler({ Records: [sqsRecord(JSON.stringify({ analysisId: started.id }), { receives: 3 })] });
    const next = await startFor(client, domain.id);
    expect(next.status).toBe(201);
    expect((await startFor(client, domain.id)).status).toBe(409);

    // A deleted one (an admin's deletion, the store's cascade) frees it too.
    const nextId = ((await next.json()) as { id: string }).id;
    await deleteAnalysisCascade(s.deps.db, { id: nextId, domainId: domain.id });
    expect((await startFor(client, domain.id)).status).toBe(201);
  }, 60_000);

  it('never stays refusing: a stale run is failed, a guard a crash left behind is freed', async () => {
    live.server = await idleServer();
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const domain = await newDomain(client);
    const first = (await (await startFor(client, domain.id)).json()) as { id: string };
    // Its run died long ago: the start fails it as stale and goes ahead.
    await setFields(s, first.id, { status: 'running', leaseUntil: Date.now() - 3 * 60 * 60 * 1000 });
    const second = await startFor(client, domain.id);
    expect(second.status).toBe(201);
    const stale = await (await client.get(`/api/csp/analyze/${first.id}`)).json();
    expect(stale.analysis.status).toBe('failed');

    // The second completes by a write that never reached the guard (a crawler that died in between).
    const secondId = ((await second.json()) as { id: string }).id;
    expect((await startFor(client, domain.id)).status).toBe(409);
    await setFields(s, secondId, { status: 'completed' });
    expect((await startFor(client, domain.id)).status).toBe(201);
  }, 60_000);

  it('frees the domain when its crawl completes', async () => {
    live.sites = await startFixtureSites({
      mainOnly: () => ({ '/': { type: 'text/html', body: '<!doctype html><title>one page</title>' } }),
    });
    live.server = await startTestServer({
      crawlHandler: (deps) => loopbackCrawlHandler(deps, live.blobDir, { crawlOptions: { rerender: false } }),
    });
    const s = live.server;
    const { client } = await registeredClient(s.url);
    const domain = await newDomain(client, `${live.sites.origins.main}/`);
    const first = await startFor(client, domain.id);
    expect(first.status).toBe(201);
    await s.queue.idle();
    const done = await (
      await client.get(`/api/csp/analyze/${((await first.json()) as { id: string }).id}`)
    ).json();
    expect(done.analysis.status).toBe('completed');
    expect((await startFor(client, domain.id)).status).toBe(201);
    await s.queue.idle();
  }, 120_000);
});
