// Field hashes over HTTP on DynamoDB Local: csp-hash and integrity-violation reports sent to the real report
// endpoint, through the queue and consumer, counted per script and digest; the API lists them judged against
// the inventory's crawl digests (seeded through the store, as a crawl that computed them would leave them);
// a digest no crawl saw is one alert, grouped per script and digest; bad reports are refused and change
// nothing; the counters stay bounded whatever a reporter invents.
import { createHash } from 'node:crypto';
import { FIELD_HASH_LIMITS } from '@csp/shared/reports/limits';
import type { FieldDigestList } from '@csp/shared/watch/field-digests';
import type { InventoryEntry } from '@csp/shared/watch/inventory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { loadFieldHashes } from '../../store/field-hashes';
import { loadInventory, putScriptEntries } from '../../store/script-inventory';
import { registeredClient, startTestServer } from '../../testing/api-server';
import type { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const SITE = 'https://www.example.com';
const APP = `${SITE}/app.js`;
const LIB = 'https://cdn.example.net/lib.js';
const NEW = 'https://cdn.example.net/new.js';
const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`;
const APP_DIGEST = sha256('window.app = 1;');
const LIB_CRAWLED = sha256('window.lib = 1;');
const LIB_TAMPERED = sha256('window.lib = 1; steal();');

function crawled(url: string, digest: string): InventoryEntry {
  const at = '2026-11-24T09:00:00.000Z';
  return {
    key: url,
    kind: 'external',
    url,
    party: url.startsWith(SITE) ? 'first' : 'third',
    initiator: null,
    digest: `sha384-${url}`,
    sha256: digest,
    digests: [{ digest: `sha384-${url}`, firstSeen: at, lastSeen: at }],
    pages: [`${SITE}/`],
    pageCount: 1,
    firstSeen: at,
    lastSeen: at,
    state: 'authorized',
    authorization: null,
    seenBy: 'crawl',
  };
}

const hashReport = (scriptUrl: string, digest: string, page = `${SITE}/`) => ({
  type: 'csp-hash',
  age: 10,
  url: page,
  user_agent: 'Chrome/147',
  body: {
    destination: 'script',
    documentURL: page,
    hash: digest,
    subresourceURL: scriptUrl,
    type: 'subresource',
  },
});
const integrityReport = (scriptUrl: string, page = `${SITE}/`) => ({
  type: 'integrity-violation',
  age: 10,
  url: page,
  body: { blockedURL: scriptUrl, destination: 'script', documentURL: page, reportOnly: true },
});

function send(uuid: string, reports: unknown[], from = '203.0.113.9') {
  return fetch(`${server.url}/api/uri-report?domain=${uuid}`, {
    method: 'POST',
    headers: { 'content-type': 'application/reports+json', 'x-forwarded-for': from },
    body: JSON.stringify(reports),
  });
}

async function ownerWithDomain() {
  const owner = await registeredClient(server.url);
  const res = await owner.client.post('/api/domains', { name: 'Shop', url: SITE });
  expect(res.status).toBe(201);
  return { ...owner, domain: (await res.json()) as { id: string; uuid: string } };
}

async function fieldHashes(client: HttpClient, domainId: string): Promise<FieldDigestList> {
  await server.reportQueue.idle();
  const res = await client.get(`/api/domains/${domainId}/scripts/field-hashes`);
  expect(res.status).toBe(200);
  return res.json();
}

async function alerts(client: HttpClient, domainId: string) {
  const body = (await (await client.get(`/api/domains/${domainId}/alerts`)).json()) as {
    alerts: { kind: string; summary: string; count: number; path: string }[];
  };
  return body.alerts.filter((a) => a.kind === 'field-digest');
}

describe('field hashes', () => {
  it('are counted per script and digest, reconciled with the crawl, and a digest no crawl saw is an alert', async () => {
    const { client, domain } = await ownerWithDomain();
    const db = server.deps.db;
    const seeded = await putScriptEntries(db, domain.id, [
      { entry: crawled(APP, APP_DIGEST), rev: null },
      { entry: crawled(LIB, LIB_CRAWLED), rev: null },
    ]);
    expect(seeded.written.size).toBe(2);

    const res = await send(domain.uuid, [
      hashReport(APP, APP_DIGEST),
      hashReport(APP, APP_DIGEST, `${SITE}/cart`),
      hashReport(LIB, LIB_TAMPERED),
      hashReport(NEW, sha256('new')),
      integrityReport(LIB),
      integrityReport(LIB, `${SITE}/cart`),
      // The same report again from the same client: a repeat.
      integrityReport(LIB, `${SITE}/cart`),
      // Noise, by the CSP reports' rules; a type nobody reads.
      hashReport('chrome-extension://abc/inject.js', APP_DIGEST),
      hashReport(APP, APP_DIGEST, 'https://evil.example.org/'),
      { type: 'deprecation', body: { id: 'x' } },
    ]);
    expect(res.status).toBe(204);

    const list = await fieldHashes(client, domain.id);
    const byKey = new Map(list.scripts.map((s) => [s.key, s]));
    // The digest no crawl saw comes first.
    expect(list.scripts[0]?.key).toBe(LIB);
    expect(byKey.get(LIB)).toMatchObject({
      crawlSha256: LIB_CRAWLED,
      digests: [{ digest: LIB_TAMPERED, count: 1, verdict: 'unknown' }],
      integrity: { count: 2, reportOnly: 2 },
    });
    expect(byKey.get(APP)).toMatchObject({
      crawlSha256: APP_DIGEST,
      digests: [{ digest: APP_DIGEST, count: 2, verdict: 'match' }],
      integrity: null,
    });
    // A script no crawl saw: its digest cannot be judged, and it joins the inventory as seen by the field.
    expect(byKey.get(NEW)).toMatchObject({ crawlSha256: null, digests: [{ verdict: 'unverified' }] });
    expect(list.scripts).toHaveLength(3);
    const inventory = await loadInventory(db, domain.id);
    expect(inventory.entries.find((e) => e.key === NEW)).toMatchObject({ seenBy: 'field', state: 'pending' });

    // Noise and other types are dropped as CSP reports' are, and counted.
    const reports = await (await client.get(`/api/domains/${domain.id}/uri-reports`)).json();
    expect(reports.dropped).toEqual({ extension: 1, offsite: 1, repeat: 1, 'other-type': 1 });

    const raised = await alerts(client, domain.id);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ count: 1, path: `/domains/${domain.id}#scripts` });
    expect(raised[0]!.summary).toContain('Visitors ran script content no crawl saw');
    expect(raised[0]!.summary).toContain(LIB);
    expect(raised[0]!.summary).toContain(LIB_TAMPERED);

    // More visitors with the same content: counted, the same alert (grouped per script and digest).
    expect(
      (await send(domain.uuid, [hashReport(LIB, LIB_TAMPERED, `${SITE}/a`)], '198.51.100.7')).status,
    ).toBe(204);
    const again = await fieldHashes(client, domain.id);
    expect(again.scripts.find((s) => s.key === LIB)?.digests[0]?.count).toBe(2);
    const grouped = await alerts(client, domain.id);
    expect(grouped).toHaveLength(1);
    expect(grouped[0]!.count).toBe(2);

    // Someone else's domain is not there for them.
    const stranger = await registeredClient(server.url);
    expect((await stranger.client.get(`/api/domains/${domain.id}/scripts/field-hashes`)).status).toBe(404);

    // Deleting the domain deletes its field hashes.
    expect((await client.delete(`/api/domains/${domain.id}`)).status).toBe(200);
    expect(await loadFieldHashes(db, domain.id)).toEqual({ scripts: [], otherScriptReports: 0 });
  });

  it('raises the alert only for a domain subscribed to it (a kind of the alert settings, on by default)', async () => {
    const { client, domain } = await ownerWithDomain();
    const defaults = await (await client.get(`/api/domains/${domain.id}/alert-settings`)).json();
    expect(defaults.kinds).toContain('field-digest');
    const off = await client.put(`/api/domains/${domain.id}/alert-settings`, {
      kinds: defaults.kinds.filter((k: string) => k !== 'field-digest'),
      email: true,
      pendingDays: 7,
    });
    expect(off.status).toBe(200);
    await putScriptEntries(server.deps.db, domain.id, [{ entry: crawled(LIB, LIB_CRAWLED), rev: null }]);
    expect((await send(domain.uuid, [hashReport(LIB, LIB_TAMPERED)], '198.51.100.20')).status).toBe(204);
    // Counted and shown as unknown all the same; no alert.
    const lib = (await fieldHashes(client, domain.id)).scripts.find((s) => s.key === LIB);
    expect(lib?.digests[0]?.verdict).toBe('unknown');
    expect(await alerts(client, domain.id)).toEqual([]);

    const on = await client.put(`/api/domains/${domain.id}/alert-settings`, {
      kinds: ['field-digest'],
      email: false,
      pendingDays: 7,
    });
    expect(on.status).toBe(200);
    expect(
      (await send(domain.uuid, [hashReport(LIB, LIB_TAMPERED, `${SITE}/b`)], '198.51.100.21')).status,
    ).toBe(204);
    await server.reportQueue.idle();
    expect(await alerts(client, domain.id)).toHaveLength(1);
  });

  it("a digest an earlier crawl saw (a visitor's copy from before the vendor's update) is 'earlier', no alert", async () => {
    const { client, domain } = await ownerWithDomain();
    const before = sha256('lib 3.6');
    const entry = crawled(LIB, LIB_CRAWLED);
    const at = '2026-11-10T09:00:00.000Z';
    // The inventory's history: the content two crawls ago, and the content now (as reconcileInventory keeps it).
    entry.digests = [
      { digest: 'sha384-lib-3.6', sha256: before, firstSeen: at, lastSeen: at },
      { digest: entry.digest!, sha256: LIB_CRAWLED, firstSeen: entry.firstSeen, lastSeen: entry.lastSeen },
    ];
    await putScriptEntries(server.deps.db, domain.id, [{ entry, rev: null }]);
    const res = await send(domain.uuid, [
      hashReport(LIB, before),
      hashReport(LIB, LIB_TAMPERED, `${SITE}/b`),
    ]);
    expect(res.status).toBe(204);
    const lib = (await fieldHashes(client, domain.id)).scripts.find((s) => s.key === LIB);
    expect(lib?.digests.map((d) => [d.digest, d.verdict])).toEqual([
      [LIB_TAMPERED, 'unknown'],
      [before, 'earlier'],
    ]);
    // Only the content no crawl ever saw alerts.
    const raised = await alerts(client, domain.id);
    expect(raised).toHaveLength(1);
    expect(raised[0]!.summary).toContain(LIB_TAMPERED);
    expect(raised[0]!.summary).not.toContain(before);
  });

  it('refuses a batch with a bad digest as a whole (400) and counts nothing of it', async () => {
    const { client, domain } = await ownerWithDomain();
    const bad = await send(domain.uuid, [hashReport(APP, APP_DIGEST), hashReport(APP, 'sha256-short=')]);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(
      /^Report 2: body\.hash must be sha256-/,
    );
    const notAUrl = await send(domain.uuid, [hashReport('app.js', APP_DIGEST)]);
    expect(notAUrl.status).toBe(400);
    expect((await fieldHashes(client, domain.id)).scripts).toEqual([]);
  });

  it('keeps at most the capped digests per script and scripts per domain, the rest counted in total', async () => {
    const { client, domain } = await ownerWithDomain();
    const extra = 3;
    const digests = Array.from({ length: FIELD_HASH_LIMITS.digestsPerScript + extra }, (_, i) =>
      hashReport(LIB, sha256(`variant ${i}`)),
    );
    expect((await send(domain.uuid, digests)).status).toBe(204);
    const lib = (await fieldHashes(client, domain.id)).scripts.find((s) => s.key === LIB)!;
    expect(lib.digests).toHaveLength(FIELD_HASH_LIMITS.digestsPerScript);
    expect(lib.otherDigestReports).toBe(extra);

    // Scripts: in batches of 100 (the most a batch may hold), past the domain's cap.
    const scripts = FIELD_HASH_LIMITS.scriptsPerDomain + 50;
    for (let i = 1; i < scripts; i += 100) {
      const batch = Array.from({ length: Math.min(100, scripts - i) }, (_, j) =>
        hashReport(`https://cdn.example.net/s${i + j}.js`, APP_DIGEST),
      );
      const r = await send(domain.uuid, batch, `192.0.2.${i % 200}`);
      expect(r.status).toBe(204);
    }
    const list = await fieldHashes(client, domain.id);
    // LIB holds the first place; every other script past the cap is counted in total only.
    expect(list.scripts).toHaveLength(FIELD_HASH_LIMITS.scriptsPerDomain);
    expect(list.otherScriptReports).toBe(scripts - FIELD_HASH_LIMITS.scriptsPerDomain);
  }, 120_000);
});
