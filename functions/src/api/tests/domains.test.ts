// Domains and analyses endpoints over HTTP: validation, ownership (someone else's object is a 404), and the
// crawl message each started analysis sends.

import { INACTIVE_DOMAIN } from '@csp/shared/schemas/domain';
import type { SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
const delivered: string[] = [];

beforeAll(async () => {
  server = await startTestServer({
    // Records what the queue delivers; the crawler itself is tested in functions/src/crawler.
    crawlHandler: () => async (event: SQSEvent) => {
      for (const r of event.Records) delivered.push(JSON.parse(r.body).analysisId);
      return { batchItemFailures: [] };
    },
  });
});
afterAll(async () => {
  await server?.close();
});

async function createDomain(client: HttpClient, body: Record<string, unknown> = {}) {
  const res = await client.post('/api/domains', {
    name: 'Example',
    url: 'https://www.example.test/',
    ...body,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; uuid: string; totalScans: number };
}

describe('domains', () => {
  it('creates, lists, reads and deletes a domain', async () => {
    const { client, user } = await registeredClient(server.url);
    const d = await createDomain(client);
    expect(d).toMatchObject({
      userId: user.id,
      name: 'Example',
      isActive: true,
      totalScans: 0,
      lastScanned: null,
    });
    expect(d.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect((await (await client.get('/api/domains')).json()).map((x: { id: string }) => x.id)).toEqual([
      d.id,
    ]);
    expect((await client.get(`/api/domains/${d.id}`)).status).toBe(200);
    expect((await client.delete(`/api/domains/${d.id}`)).status).toBe(200);
    expect((await client.get(`/api/domains/${d.id}`)).status).toBe(404);
    expect(await (await client.get('/api/domains')).json()).toEqual([]);
  });

  it.each([
    [{ name: '' }, 'Domain name is required'],
    [{ url: 'not a url' }, 'Please enter a valid URL'],
    [{ url: 'javascript:alert(1)' }, 'Please enter a valid URL'],
    [{ url: 'file:///etc/passwd' }, 'Please enter a valid URL'],
  ])('rejects %o with the spec message and writes nothing', async (patch, message) => {
    const { client } = await registeredClient(server.url);
    const res = await client.post('/api/domains', { name: 'Example', url: 'https://a.test', ...patch });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await (await client.get('/api/domains')).json()).toEqual([]);
  });

  it("hides another user's domain behind a 404 for every verb", async () => {
    const alice = await registeredClient(server.url);
    const bob = await registeredClient(server.url);
    const d = await createDomain(alice.client);
    for (const res of [
      await bob.client.get(`/api/domains/${d.id}`),
      await bob.client.delete(`/api/domains/${d.id}`),
      await bob.client.patch(`/api/domains/${d.id}`, { isActive: false }),
      await bob.client.get(`/api/domains/${d.id}/analyses`),
      await bob.client.post('/api/csp-analyses', { domainId: d.id, crawlRequest: {} }),
    ]) {
      expect(res.status).toBe(404);
    }
    expect((await alice.client.get(`/api/domains/${d.id}`)).status).toBe(200);
    expect(await (await bob.client.get('/api/domains')).json()).toEqual([]);
  });

  it('requires a session', async () => {
    const anon = new HttpClient(server.url);
    expect((await anon.post('/api/domains', { name: 'x', url: 'https://x.test' })).status).toBe(401);
    expect((await anon.patch('/api/domains/x', { isActive: true })).status).toBe(401);
  });

  it('an inactive domain is not scanned, says why, and can be activated', async () => {
    const { client } = await registeredClient(server.url);
    const d = await createDomain(client, { isActive: false });
    const refused = await client.post('/api/csp-analyses', { domainId: d.id, crawlRequest: {} });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(INACTIVE_DOMAIN);
    expect((await (await client.get(`/api/domains/${d.id}`)).json()).totalScans).toBe(0);

    for (const [body, message] of [
      [{}, 'Nothing to change'],
      [{ isActive: 'yes' }, 'isActive must be true or false'],
      [{ url: 'ftp://x' }, 'Please enter a valid URL'],
    ] as const) {
      const res = await client.patch(`/api/domains/${d.id}`, body);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    const activated = await client.patch(`/api/domains/${d.id}`, { isActive: true });
    expect(activated.status).toBe(200);
    expect((await activated.json()).isActive).toBe(true);
    expect((await client.post('/api/csp-analyses', { domainId: d.id, crawlRequest: {} })).status).toBe(201);
  });
});

describe('analyses', () => {
  it('starts an analysis of the domain URL, counts the scan and queues it', async () => {
    const { client } = await registeredClient(server.url);
    const d = await createDomain(client, { url: 'https://shop.example.test/' });
    const res = await client.post('/api/csp-analyses', {
      domainId: d.id,
      crawlRequest: {
        url: 'https://elsewhere.test/',
        maxPages: '20',
        crawlDelay: 0,
        urlList: ['https://shop.example.test/a'],
      },
    });
    expect(res.status).toBe(201);
    const a = await res.json();
    expect(a).toMatchObject({
      domainId: d.id,
      url: 'https://shop.example.test/',
      status: 'pending',
      maxPages: 20,
      crawlDelay: 0,
      progress: 0,
    });
    expect(a).not.toHaveProperty('crawlRequest');
    await server.queue.idle();
    expect(delivered).toContain(a.id);
    const domain = await (await client.get(`/api/domains/${d.id}`)).json();
    expect(domain.totalScans).toBe(1);
    expect(domain.lastScanned).toBeTruthy();
    const list = await (await client.get(`/api/domains/${d.id}/analyses`)).json();
    expect(list.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const all = await (await client.get('/api/csp-analyses')).json();
    expect(all.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const one = await (await client.get(`/api/csp/analyze/${a.id}`)).json();
    expect(one).toMatchObject({ success: true, analysis: { id: a.id } });
  });

  it.each([
    [{ maxPages: 0 }, 'maxPages must be between 1 and 500'],
    [{ maxPages: 501 }, 'maxPages must be between 1 and 500'],
    [{ maxPages: 'lots' }, 'maxPages must be a number'],
    [{ crawlDelay: -1 }, 'crawlDelay must be between 0 and 5000 ms'],
    [{ crawlDelay: 5001 }, 'crawlDelay must be between 0 and 5000 ms'],
    [{ urlList: ['ftp://x.test/'] }, 'Every URL in the list must be a valid http(s) URL'],
    [{ headerBudget: 1000 }, 'headerBudget must be between 1024 and 16384 bytes'],
    [{ headerBudget: 'big' }, 'headerBudget must be a number'],
    [{ policyTarget: 'apache' }, "policyTarget must be 'header' or 'cloudfront'"],
  ])('refuses crawl request %o with a clear 400 and creates nothing', async (crawlRequest, message) => {
    const { client } = await registeredClient(server.url);
    const d = await createDomain(client);
    const res = await client.post('/api/csp-analyses', { domainId: d.id, crawlRequest });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(await (await client.get('/api/csp-analyses')).json()).toEqual([]);
    expect((await (await client.get(`/api/domains/${d.id}`)).json()).totalScans).toBe(0);
  });

  it('starts a standalone analysis from the body, and requires some input', async () => {
    const { client } = await registeredClient(server.url);
    const empty = await client.post('/api/csp/analyze', {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe('Please provide a URL, URL list, or sitemap content.');
    const res = await client.post('/api/csp/analyze', { urlList: ['https://a.example.test/x'], maxPages: 5 });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.success).toBe(true);
    expect(body.analysis).toMatchObject({
      domainId: null,
      url: 'https://a.example.test/x',
      maxPages: 5,
      crawlDelay: 1000,
    });
  });

  it('takes an uploaded sitemap up to 300 KB; a larger one is a clear 400, a huge body a 413', async () => {
    const { client } = await registeredClient(server.url);
    const sitemap = (size: number) => `<urlset>${'x'.repeat(size)}</urlset>`;
    expect((await client.post('/api/csp/analyze', { sitemapContent: sitemap(250_000) })).status).toBe(201);
    const big = await client.post('/api/csp/analyze', { sitemapContent: sitemap(310_000) });
    expect(big.status).toBe(400);
    expect((await big.json()).message).toBe(
      'Sitemap content is too large (300 KB at most): give the sitemap URL instead',
    );
    const huge = await client.post('/api/csp/analyze', { sitemapContent: sitemap(500_000) });
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toBe('Request body is too large (400 KB at most)');
  });

  it("hides another user's analysis behind a 404", async () => {
    const alice = await registeredClient(server.url);
    const bob = await registeredClient(server.url);
    const { analysisId } = await (
      await alice.client.post('/api/csp/analyze', { url: 'https://a.example.test/' })
    ).json();
    expect((await bob.client.get(`/api/csp/analyze/${analysisId}`)).status).toBe(404);
    expect(await (await bob.client.get('/api/csp-analyses')).json()).toEqual([]);
  });
});
