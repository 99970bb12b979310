// The evidence export over HTTP on DynamoDB Local: an inventory folded in from runs (updateInventory), scripts
// authorized through the API, watched runs (putWatchRun) and alerts (raiseAndQueue), some inside the period
// and some long before it. The CSV and the JSON hold each section's rows of the period only, come as a named
// download, and the history row of an authorization stays as it was when the script is authorized again
// later. Owner, team member and a read token read it; a token without the read scope gets 403, someone else
// 404, bad periods and formats a 400 with the reason.

import { parseCsv } from '@csp/shared/watch/csv-reader';
import { EVIDENCE_CSV_COLUMNS } from '@csp/shared/watch/evidence';
import type { WatchedScript } from '@csp/shared/watch/snapshot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAndQueue } from '../../alerts/deliver';
import type { LocalServer } from '../../local/server';
import { newId } from '../../store/ids';
import { putWatchRun } from '../../store/watch-snapshots';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { updateInventory } from '../../watch/inventory-update';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
}, 60_000);
afterAll(() => server?.close());

type Account = Awaited<ReturnType<typeof registeredClient>>;

async function memberOf(owner: Account): Promise<Account> {
  const member = await registeredClient(server.url);
  const team = await (
    await owner.client.post('/api/teams', { name: 'Agency', slug: `team-${Date.now().toString(36)}` })
  ).json();
  const inv = await (
    await owner.client.post(`/api/teams/${team.id}/invitations`, { email: `${member.username}@example.test` })
  ).json();
  const token = new URL(inv.link).pathname.split('/').pop();
  expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
  return member;
}

const SITE = 'https://shop.test';
const APP = `${SITE}/app.js`;
// Attacker-chosen: a vendor URL that a spreadsheet would run as a formula if it started a cell.
const TAG = '=HYPERLINK("https://evil.test","tag"),x';
const script = (url: string, digest: string, extra: Partial<WatchedScript> = {}): WatchedScript => ({
  key: url,
  kind: 'external',
  url,
  digest,
  party: 'first',
  initiator: null,
  pages: [`${SITE}/`, `${SITE}/checkout`],
  pageCount: 2,
  ...extra,
});

const DAY = 86_400_000;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const counts = {
  scriptsAdded: 0,
  scriptsChanged: 1,
  scriptsRemoved: 0,
  originChanges: 0,
  policyChanges: 0,
  headerChanges: 0,
  drift: null,
};

/** The CSV download read back as objects keyed by column (its BOM kept: Response.text() would drop it). */
async function rowsOf(res: Pick<Response, 'arrayBuffer'>) {
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [header, ...records] = parseCsv(text.slice(1));
  expect(header).toEqual([...EVIDENCE_CSV_COLUMNS]);
  return records.map((r) => Object.fromEntries(header!.map((c, i) => [c, r[i]!])));
}

describe('evidence export', () => {
  it('exports the period as a CSV and a JSON download; an earlier authorization row never changes', async () => {
    const { db } = server.deps;
    const owner = await registeredClient(server.url);
    const domain = await (
      await owner.client.post('/api/domains', { name: 'Shop "EU"', url: `${SITE}/` })
    ).json();
    const now = Date.now();
    const old = now - 200 * DAY;

    // Long before the period: the first run (its "seen" rows), its watched run and an alert.
    const oldRun = newId(old);
    await updateInventory(db, {
      domainId: domain.id,
      snapshot: {
        analysisId: oldRun,
        completedAt: new Date(old).toISOString(),
        scripts: [script(APP, 'sha384-A'), script(TAG, 'sha384-T', { party: 'third', url: TAG })],
      },
    });
    const common = { domainId: domain.id, drift: null, snapshot: { scripts: [], policy: {}, headers: [] } };
    await putWatchRun(db, {
      ...common,
      analysisId: oldRun,
      previousAnalysisId: null,
      completedAt: new Date(old).toISOString(),
      counts: { ...counts, scriptsChanged: 0 },
      snapshot: { ...common.snapshot, analysisId: oldRun, completedAt: new Date(old).toISOString() },
      changes: null,
    });
    const alert = { domainId: domain.id, domainName: domain.name, path: `/domains/${domain.id}?tab=scripts` };
    await raiseAndQueue(db, { ...alert, kind: 'script-added', cause: TAG, summary: 'Old news' }, old);

    // In the period: the owner authorizes the app with one justification.
    const authorize = (justification: string) =>
      owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, { keys: [APP], justification });
    expect((await authorize('Checkout bundle, v1')).status).toBe(200);

    // A run in the period changes the app's content (pending again), compared with the old one; it alerts.
    const newRun = newId(now);
    // Completing after the authorization (its history rows sort after it).
    await new Promise((r) => setTimeout(r, 5));
    const completedAt = new Date().toISOString();
    await updateInventory(db, {
      domainId: domain.id,
      snapshot: {
        analysisId: newRun,
        completedAt,
        scripts: [script(APP, 'sha384-B'), script(TAG, 'sha384-T', { party: 'third', url: TAG })],
      },
    });
    await putWatchRun(db, {
      ...common,
      analysisId: newRun,
      previousAnalysisId: oldRun,
      completedAt,
      counts,
      snapshot: { ...common.snapshot, analysisId: newRun, completedAt },
      changes: {
        scripts: {
          added: [],
          changed: [{ before: script(APP, 'sha384-A'), after: script(APP, 'sha384-B') }],
          removed: [],
        },
        origins: [],
        policy: [],
        headers: [],
      },
    });
    const raised = await raiseAndQueue(
      db,
      { ...alert, kind: 'script-changed', cause: APP, summary: '@app.js changed' },
      Date.parse(completedAt) + 10,
    );
    expect(raised).toHaveLength(1); // e-mail to the owner, on by default

    const from = day(now - 30 * DAY);
    const to = day(now);
    const path = `/api/domains/${domain.id}/evidence?from=${from}&to=${to}`;
    const res = await owner.client.get(`${path}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="evidence-shop-eu-${from}-${to}.csv"`,
    );
    const rows = await rowsOf(res);
    const section = (s: string) => rows.filter((r) => r.section === s);

    expect(section('inventory')).toEqual([
      expect.objectContaining({
        script: APP,
        state: 'pending',
        digest: 'sha384-B',
        justification: 'Checkout bundle, v1',
        by: `${owner.user.username} (${owner.user.id})`,
        first_seen: new Date(old).toISOString(),
        last_seen: completedAt,
        pages: `${SITE}/\n${SITE}/checkout`,
      }),
      // The formula-like URL is text in the spreadsheet.
      expect.objectContaining({ script: `'${TAG}`, url: `'${TAG}`, party: 'third', state: 'pending' }),
    ]);
    // Only the period's history: no "seen" rows of the old run.
    const history = section('authorization-history');
    expect(history.map((h) => [h.event, h.script])).toEqual([
      ['authorized', APP],
      ['content-changed', APP],
      ['pending-again', APP],
    ]);
    expect(history[0]).toMatchObject({
      justification: 'Checkout bundle, v1',
      digest: 'sha384-A',
      state: 'authorized',
    });
    expect(history.every((h) => (h.at ?? '') >= `${from}T00:00:00.000Z`)).toBe(true);
    // Only the period's runs.
    expect(section('change-log')).toEqual([
      expect.objectContaining({
        analysis_id: newRun,
        previous_analysis_id: oldRun,
        event: 'script-changed',
        script: APP,
        digest: 'sha384-B',
        previous_digest: 'sha384-A',
      }),
    ]);
    expect(section('alerts')).toEqual([
      expect.objectContaining({ event: 'script-changed', count: '1', detail: "'@app.js changed" }),
    ]);
    expect(section('alert-deliveries')).toEqual([
      expect.objectContaining({ event: 'script-changed', state: 'pending', recipient: 'email owner' }),
    ]);

    const json = await owner.client.get(`${path}&format=json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toBe(
      `attachment; filename="evidence-shop-eu-${from}-${to}.json"`,
    );
    const doc = await json.json();
    expect(doc).toMatchObject({
      format: 'csp-generator-evidence',
      version: 1,
      domain: { name: 'Shop "EU"', url: `${SITE}/` },
      period: { from, to },
      cut: { runs: false, alerts: false, deliveries: false },
    });
    expect(doc.inventory.map((e: { key: string }) => e.key).sort()).toEqual([APP, TAG].sort());
    expect(doc.inventory.find((e: { key: string }) => e.key === APP).authorization).toMatchObject({
      justification: 'Checkout bundle, v1',
      byName: owner.user.username,
    });
    expect(doc.authorizationHistory).toHaveLength(3);
    expect(doc.changeLog.map((r: { analysisId: string }) => r.analysisId)).toEqual([newRun]);
    expect(doc.alerts.map((a: { kind: string }) => a.kind)).toEqual(['script-changed']);

    // A period that covers the old run shows its rows too (so the filter above is the period's).
    const all = await rowsOf(
      await owner.client.get(`/api/domains/${domain.id}/evidence?from=${day(old)}&to=${to}`),
    );
    expect(all.filter((r) => r.section === 'change-log').map((r) => r.event)).toEqual([
      'first-run',
      'script-changed',
    ]);
    expect(all.filter((r) => r.section === 'authorization-history' && r.event === 'seen')).toHaveLength(2);
    expect(all.filter((r) => r.section === 'alerts').map((r) => r.event)).toEqual([
      'script-added',
      'script-changed',
    ]);

    // Authorized again later with another justification: the inventory says so, the earlier row is unchanged.
    expect((await authorize('Checkout bundle, v2')).status).toBe(200);
    const later = await rowsOf(await owner.client.get(`${path}&format=csv`));
    expect(later.find((r) => r.section === 'inventory' && r.script === APP)).toMatchObject({
      state: 'authorized',
      justification: 'Checkout bundle, v2',
      digest: 'sha384-B',
    });
    const laterHistory = later.filter((r) => r.section === 'authorization-history');
    expect(laterHistory.slice(0, 3)).toEqual(history);
    expect(laterHistory[3]).toMatchObject({ event: 'authorized', justification: 'Checkout bundle, v2' });
  });

  it('lets the team and a read token read it; refuses other tokens, strangers and bad periods', async () => {
    const owner = await registeredClient(server.url);
    const domain = await (await owner.client.post('/api/domains', { name: 'Shop', url: `${SITE}/` })).json();
    const path = `/api/domains/${domain.id}/evidence`;

    // Defaults: CSV of the last 90 days.
    const today = day(Date.now());
    const mine = await owner.client.get(path);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('content-disposition')).toBe(
      `attachment; filename="evidence-shop-${day(Date.now() - 89 * DAY)}-${today}.csv"`,
    );
    expect(await rowsOf(mine)).toEqual([]);

    const member = await memberOf(owner);
    expect((await member.client.get(`${path}?format=json`)).status).toBe(200);

    const tokenWith = async (scopes: string[]) =>
      (await (await owner.client.post('/api/user/api-tokens', { name: 'ci', scopes })).json())
        .token as string;
    const pipeline = new HttpClient(server.url, null);
    const read = await pipeline.get(path, { authorization: `Bearer ${await tokenWith(['read'])}` });
    expect(read.status).toBe(200);
    const writeOnly = await pipeline.get(path, {
      authorization: `Bearer ${await tokenWith(['analyses:write'])}`,
    });
    expect(writeOnly.status).toBe(403);
    expect((await writeOnly.json()).message).toBe("This API token lacks the 'read' scope");

    const stranger = await registeredClient(server.url);
    expect((await stranger.client.get(path)).status).toBe(404);
    expect((await owner.client.get('/api/domains/no-such-domain/evidence')).status).toBe(404);

    for (const [q, message] of [
      ['from=2026-13-01', 'from is not a calendar date'],
      ['to=26-01-01', 'to must be a date written YYYY-MM-DD'],
      ['from=2025-01-01&to=2026-01-02', 'The period is 367 days long; an export covers 366 days at most'],
      ['from=2026-02-02&to=2026-02-01', 'The period ends (2026-02-01) before it starts (2026-02-02)'],
      ['format=xlsx', 'format must be csv or json'],
    ] as const) {
      const bad = await owner.client.get(`${path}?${q}`);
      expect(bad.status, q).toBe(400);
      expect((await bad.json()).message, q).toContain(message);
    }
  });

  it('refuses, with the reason, an export larger than one download carries; the CSV of it still fits', async () => {
    const owner = await registeredClient(server.url);
    const domain = await (await owner.client.post('/api/domains', { name: 'Big', url: `${SITE}/` })).json();
    // 60 scripts on 50 pages each, every page address 2,000 characters: 6 MB of page lists in the JSON,
    // while the CSV's page cells are cut at what a spreadsheet keeps.
    const pages = Array.from(
      { length: 50 },
      (_, p) => `${SITE}/${String(p).padStart(2, '0')}/${'x'.repeat(1_990)}`,
    );
    await updateInventory(server.deps.db, {
      domainId: domain.id,
      snapshot: {
        analysisId: newId(),
        completedAt: new Date().toISOString(),
        scripts: Array.from({ length: 60 }, (_, i) =>
          script(`${SITE}/s${i}.js`, `sha384-${i}`, { pages, pageCount: 50 }),
        ),
      },
    });
    const json = await owner.client.get(`/api/domains/${domain.id}/evidence?format=json`);
    expect(json.status).toBe(413);
    expect((await json.json()).message).toMatch(
      /^This export is 6\.\d MB, more than one download carries \(5\.5 MB\): choose a shorter period or CSV$/,
    );
    const csv = await owner.client.get(`/api/domains/${domain.id}/evidence?format=csv`);
    expect(csv.status).toBe(200);
    expect((await rowsOf(csv)).filter((r) => r.section === 'inventory')).toHaveLength(60);
  });
});
