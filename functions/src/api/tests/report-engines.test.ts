// Report suggestions per engine, over HTTP on DynamoDB Local: reports sent by Firefox, Chromium and Safari
// (their user agents, as each browser sends them) through the real endpoint and consumer; the suggestions
// API says which engines sent each group and marks a miss only one engine has. A user agent is attacker
// text: a long or strange one is cut and counted as "other", never echoed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { registeredClient, startTestServer } from '../../testing/api-server';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const SITE = 'https://www.example.com';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';

function send(uuid: string, userAgent: string, report: Record<string, string>) {
  return fetch(`${server.url}/api/uri-report?domain=${uuid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/csp-report', 'user-agent': userAgent },
    body: JSON.stringify({
      'csp-report': { 'original-policy': "default-src 'none'; report-uri /api/uri-report", ...report },
    }),
  });
}

interface Suggestion {
  directive: string;
  blocked: string;
  count: number;
  engines: Record<string, number>;
  onlyEngine: string | null;
}

describe('report suggestions per engine', () => {
  it('counts the engines that sent each group and marks a Firefox-only and a Safari-only miss', async () => {
    const { client } = await registeredClient(server.url);
    const res = await client.post('/api/domains', { name: 'Shop', url: SITE, isActive: true });
    const domain = (await res.json()) as { id: string; uuid: string };

    // The favicon, blocked in Firefox only (Chromium never checks /favicon.ico), on three pages.
    for (const page of ['/', '/a', '/b']) {
      const r = await send(domain.uuid, FIREFOX, {
        'document-uri': `${SITE}${page}`,
        'violated-directive': 'img-src',
        'blocked-uri': `${SITE}/favicon.ico`,
      });
      expect(r.status).toBe(204);
    }
    // A third-party script every engine blocks.
    for (const [ua, page] of [
      [CHROME, '/c'],
      [FIREFOX, '/c'],
      [SAFARI, '/d'],
      [CHROME, '/e'],
    ] as const) {
      await send(domain.uuid, ua, {
        'document-uri': `${SITE}${page}`,
        'violated-directive': 'script-src-elem',
        'blocked-uri': 'https://cdn.example.net/pay.js',
      });
    }
    // A font only Safari reports; and one report whose user agent is junk a page could make up.
    await send(domain.uuid, SAFARI, {
      'document-uri': `${SITE}/f`,
      'violated-directive': 'font-src',
      'blocked-uri': 'https://fonts.example.org/a.woff2',
    });
    await send(domain.uuid, `<script>${'Firefox/ Gecko/ '.repeat(1000)}`, {
      'document-uri': `${SITE}/g`,
      'violated-directive': 'connect-src',
      'blocked-uri': 'https://api.example.org/x',
    });
    await server.reportQueue.idle();

    const out = await client.get(`/api/domains/${domain.id}/report-suggestions`);
    expect(out.status).toBe(200);
    const body = (await out.json()) as { suggestions: Suggestion[] };
    const by = (directive: string) => body.suggestions.find((s) => s.directive === directive)!;

    expect(by('img-src')).toMatchObject({
      count: 3,
      engines: { chromium: 0, firefox: 3, safari: 0, other: 0 },
      onlyEngine: 'firefox',
    });
    // No crawl yet: the suggestion stays under the reported directive.
    expect(by('script-src-elem')).toMatchObject({
      count: 4,
      engines: { chromium: 2, firefox: 1, safari: 1, other: 0 },
      onlyEngine: null,
    });
    expect(by('font-src')).toMatchObject({ engines: { safari: 1 }, onlyEngine: 'safari' });
    // A made-up user agent counts as whatever engine it claims (a user agent is the sender's word), but it
    // is cut at ingest, read only in its first 512 characters and never echoed.
    expect(by('connect-src')).toMatchObject({
      engines: { chromium: 0, firefox: 1, safari: 0, other: 0 },
      onlyEngine: 'firefox',
    });
    expect(JSON.stringify(body)).not.toContain('<script>');
  });
});
