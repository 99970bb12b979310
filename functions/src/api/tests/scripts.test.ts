// The script inventory over HTTP on DynamoDB Local: runs folded in through updateInventory (snapshots built
// here), then read and reviewed through /api/domains/:id/scripts — bulk authorization, a changed authorized
// script pending again (and the event that alerts), a rule new versions inherit, an any-content rule, removed
// scripts, an append-only history, scripts only reports named, the team's read-only view, someone else's
// 404, bad input that changes nothing, and the table writes of an unchanged re-run.

import { KEY_PREFIX } from '@csp/shared/store/key-prefixes';
import type { AuthorizationRule } from '@csp/shared/watch/inventory';
import type { RunSnapshot, WatchedScript } from '@csp/shared/watch/snapshot';
import { syntheticRuns } from '@csp/shared/watch/snapshot-factory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { createLogger } from '../../logger';
import { listDomainScriptHistory } from '../../store/script-inventory';
import { deleteUserCascade } from '../../store/user-cascade';
import { getUser } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { recordingDb, type Touch } from '../../testing/key-recorder';
import { sendReport, until } from '../../testing/reports';
import { itemsMentioning } from '../../testing/user-data';
import { FIELD_SCRIPTS_PER_DOMAIN, recordFieldScripts, updateInventory } from '../../watch/inventory-update';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

type Account = Awaited<ReturnType<typeof registeredClient>>;

const SITE = 'https://shop.test';
const APP = `${SITE}/app.js`;
const TAG = 'https://tags.vendor.test/tag.js';
const PIXEL = 'https://px.fourth.test/p.js';

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
let runs = 0;
const run = (
  day: number,
  ...scripts: WatchedScript[]
): Pick<RunSnapshot, 'analysisId' | 'completedAt' | 'scripts'> => ({
  analysisId: `run${++runs}`,
  completedAt: `2026-11-${String(day).padStart(2, '0')}T06:00:00.000Z`,
  scripts,
});
/** A run completing now: its history rows sort after the authorizations made before it. */
const live = async (...scripts: WatchedScript[]) => {
  await new Promise((r) => setTimeout(r, 5));
  return { analysisId: `run${++runs}`, completedAt: new Date().toISOString(), scripts };
};
const fold = (domainId: string, snapshot: ReturnType<typeof run>) =>
  updateInventory(server.deps.db, { domainId, snapshot });

async function ownerWithDomain() {
  const owner = await registeredClient(server.url);
  const res = await owner.client.post('/api/domains', { name: 'Shop', url: `${SITE}/` });
  expect(res.status).toBe(201);
  return { owner, domain: (await res.json()) as { id: string; uuid: string } };
}

const list = async (a: Account, domainId: string, q = '') => {
  const res = await a.client.get(`/api/domains/${domainId}/scripts${q}`);
  expect(res.status).toBe(200);
  return res.json();
};
const byKey = (scripts: { key: string }[]) => new Map(scripts.map((s) => [s.key, s]));
const historyPath = (domainId: string, key: string) =>
  `/api/domains/${domainId}/scripts/${encodeURIComponent(key)}/history`;
const history = async (a: Account, domainId: string, key: string) => {
  const res = await a.client.get(historyPath(domainId, key));
  expect(res.status).toBe(200);
  return (await res.json()).history as { id: string; type: string; [k: string]: unknown }[];
};

describe('review of a domain inventory', () => {
  it('lists a first run pending, authorizes in bulk with one justification, and records who and why', async () => {
    const { owner, domain } = await ownerWithDomain();
    const snapshot = run(
      1,
      script(APP, 'sha384-A'),
      script(TAG, 'sha384-T', { party: 'third' }),
      script(PIXEL, 'sha384-P', { party: 'fourth', initiator: TAG }),
    );
    const first = await fold(domain.id, snapshot);
    expect(first.events.map((e) => e.type)).toEqual(['new-pending', 'new-pending', 'new-pending']);
    const before = await list(owner, domain.id);
    expect(before.counts).toEqual({ pending: 3, authorized: 0, removed: 0 });
    expect(before.scripts.map((s: { key: string }) => s.key)).toEqual([APP, TAG, PIXEL]); // by party
    expect(byKey(before.scripts).get(PIXEL)).toMatchObject({
      party: 'fourth',
      initiator: TAG,
      digest: 'sha384-P',
      pages: [`${SITE}/`, `${SITE}/checkout`],
      firstSeen: '2026-11-01T06:00:00.000Z',
      lastSeen: '2026-11-01T06:00:00.000Z',
      changedInLastRun: true,
      seenBy: 'crawl',
    });

    const res = await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP, TAG],
      justification: 'Checkout bundle and the payment provider tag',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ authorized: 2 });
    const after = await list(owner, domain.id);
    expect(after.counts).toEqual({ pending: 1, authorized: 2, removed: 0 });
    expect(byKey(after.scripts).get(TAG)).toMatchObject({
      state: 'authorized',
      authorization: {
        by: owner.user.id,
        justification: 'Checkout bundle and the payment provider tag',
        digest: 'sha384-T',
        anyContent: false,
        ruleId: null,
      },
    });
    expect(
      (await list(owner, domain.id, '?state=pending')).scripts.map((s: { key: string }) => s.key),
    ).toEqual([PIXEL]);
    expect((await list(owner, domain.id, '?party=third')).scripts.map((s: { key: string }) => s.key)).toEqual(
      [TAG],
    );
    const rows = await history(owner, domain.id, TAG);
    expect(rows.map((r) => r.type)).toEqual(['authorized', 'seen']); // newest first
    expect(rows[0]).toMatchObject({ by: owner.user.id, byName: owner.username, digest: 'sha384-T' });
    expect(rows[1]).toMatchObject({ analysisId: snapshot.analysisId, state: 'pending', by: null });
  });

  it('makes a changed authorized script pending again, returns the event, and the changed filter finds it', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A'), script(TAG, 'sha384-T', { party: 'third' })));
    await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP, TAG],
      justification: 'Ours and the payment tag',
    });
    const later = await live(script(APP, 'sha384-A'), script(TAG, 'sha384-X', { party: 'third' }));
    const second = await fold(domain.id, later);
    expect(second.events).toEqual([
      { type: 'content-changed', key: TAG, before: 'sha384-T', after: 'sha384-X', state: 'pending' },
    ]);
    const changed = await list(owner, domain.id, '?changed=true');
    expect(changed.scripts.map((s: { key: string }) => s.key)).toEqual([TAG]);
    expect(changed.scripts[0]).toMatchObject({
      state: 'pending',
      digest: 'sha384-X',
      authorization: { digest: 'sha384-T' },
    });
    expect(changed.scripts[0].digests.map((d: { digest: string }) => d.digest)).toEqual([
      'sha384-T',
      'sha384-X',
    ]);
    expect((await history(owner, domain.id, TAG)).map((r) => r.type)).toEqual([
      'pending-again',
      'content-changed',
      'authorized',
      'seen',
    ]);
    // The unchanged one was seen by the second run too, without being written again.
    expect(byKey((await list(owner, domain.id)).scripts).get(APP)).toMatchObject({
      state: 'authorized',
      lastSeen: later.completedAt,
      changedInLastRun: false,
    });
  });

  it('lets a URL-pattern rule authorize what it matches now and the new versions a run finds', async () => {
    const { owner, domain } = await ownerWithDomain();
    const v1 = `${SITE}/bundle.1a.js`;
    const v2 = `${SITE}/bundle.2b.js`;
    await fold(domain.id, run(1, script(v1, 'sha384-1')));
    const res = await owner.client.post(`/api/domains/${domain.id}/scripts/rules`, {
      pattern: `${SITE}/bundle.*.js`,
      justification: 'Our versioned build output',
    });
    expect(res.status).toBe(201);
    const { rule, authorized } = (await res.json()) as { rule: AuthorizationRule; authorized: number };
    expect(authorized).toBe(1);
    const next = await fold(domain.id, run(8, script(v2, 'sha384-2')));
    expect(next.events).toEqual([
      { type: 'new-authorized', key: v2, ruleId: rule.id },
      { type: 'removed', key: v1 },
    ]);
    const scripts = byKey((await list(owner, domain.id)).scripts);
    expect(scripts.get(v2)).toMatchObject({
      state: 'authorized',
      authorization: { ruleId: rule.id, digest: 'sha384-2' },
    });
    expect(scripts.get(v1)).toMatchObject({ state: 'removed', lastSeen: '2026-11-01T06:00:00.000Z' });
    // Same versioned URL, other bytes: not covered by a rule without "any content".
    const tampered = await fold(domain.id, run(15, script(v2, 'sha384-EVIL')));
    expect(tampered.events[0]).toMatchObject({ type: 'content-changed', key: v2, state: 'pending' });
    expect((await list(owner, domain.id)).rules).toEqual([rule]);
    expect((await owner.client.delete(`/api/domains/${domain.id}/scripts/rules/${rule.id}`)).status).toBe(
      200,
    );
    expect((await list(owner, domain.id)).rules).toEqual([]);
    expect((await owner.client.delete(`/api/domains/${domain.id}/scripts/rules/${rule.id}`)).status).toBe(
      404,
    );
  });

  it('keeps a script authorized under an any-content rule when its content changes, and still tells', async () => {
    const { owner, domain } = await ownerWithDomain();
    const res = await owner.client.post(`/api/domains/${domain.id}/scripts/rules`, {
      pattern: 'https://tags.vendor.test/*',
      justification: 'Vendor tag, evergreen by contract',
      anyContent: true,
    });
    expect(res.status).toBe(201);
    const first = await fold(domain.id, run(1, script(TAG, 'sha384-T', { party: 'third' })));
    expect(first.events[0]).toMatchObject({ type: 'new-authorized', key: TAG });
    const second = await fold(domain.id, run(8, script(TAG, 'sha384-U', { party: 'third' })));
    expect(second.events).toEqual([
      { type: 'content-changed', key: TAG, before: 'sha384-T', after: 'sha384-U', state: 'authorized' },
    ]);
    expect((await list(owner, domain.id)).scripts[0]).toMatchObject({
      state: 'authorized',
      digest: 'sha384-U',
    });
  });

  it('marks what a run no longer saw removed, never authorizes it, and tells when it returns', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A'), script(TAG, 'sha384-T')));
    const gone = await fold(domain.id, run(8, script(APP, 'sha384-A')));
    expect(gone.events).toEqual([{ type: 'removed', key: TAG }]);
    const res = await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP, TAG],
      justification: 'Both',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/not in the inventory or removed; nothing was authorized/);
    expect((await list(owner, domain.id)).counts).toEqual({ pending: 1, authorized: 0, removed: 1 });
    const back = await fold(domain.id, run(15, script(APP, 'sha384-A'), script(TAG, 'sha384-T')));
    expect(back.events).toEqual([{ type: 'returned', key: TAG, state: 'pending' }]);
    expect((await history(owner, domain.id, TAG)).map((r) => r.type)).toEqual([
      'returned',
      'removed',
      'seen',
    ]);
  });

  it("loses neither the owner's authorization nor the run when both write the same script at once", async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    // The owner authorizes between the run's read of the inventory and its write of the script.
    let interleaved = false;
    const db = {
      ...server.deps.db,
      doc: {
        send: async (cmd: { constructor: { name: string }; input: { Item?: { key?: string } } }) => {
          if (!interleaved && cmd.constructor.name === 'PutCommand' && cmd.input.Item?.key === APP) {
            interleaved = true;
            const res = await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
              keys: [APP],
              justification: 'Reviewed meanwhile',
            });
            expect(res.status).toBe(200);
          }
          return server.deps.db.doc.send(cmd as never);
        },
      },
    } as unknown as typeof server.deps.db;
    const moved = script(APP, 'sha384-A', { pages: [`${SITE}/new`], pageCount: 1 });
    await updateInventory(db, { domainId: domain.id, snapshot: run(8, moved, script(TAG, 'sha384-T')) });
    expect(interleaved).toBe(true);
    const scripts = byKey((await list(owner, domain.id)).scripts);
    expect(scripts.get(APP)).toMatchObject({
      state: 'authorized',
      authorization: { justification: 'Reviewed meanwhile' },
      pages: [`${SITE}/new`],
    });
    expect(scripts.get(TAG)).toMatchObject({ state: 'pending' });
  });

  it('ignores a run folded in twice (a redelivered completion) or older than the last one', async () => {
    const { owner, domain } = await ownerWithDomain();
    const once = run(8, script(APP, 'sha384-A'));
    await fold(domain.id, once);
    expect((await fold(domain.id, once)).events).toEqual([]);
    expect((await fold(domain.id, run(1, script(TAG, 'sha384-T')))).events).toEqual([]);
    expect((await list(owner, domain.id)).total).toBe(1);
  });

  it('pages through the list', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(
      domain.id,
      run(1, ...['a', 'b', 'c', 'd', 'e'].map((n) => script(`${SITE}/${n}.js`, `sha384-${n}`))),
    );
    const one = await list(owner, domain.id, '?limit=2');
    expect(one).toMatchObject({ total: 5, nextCursor: '2' });
    const two = await list(owner, domain.id, `?limit=2&cursor=${one.nextCursor}`);
    const three = await list(owner, domain.id, `?limit=2&cursor=${two.nextCursor}`);
    expect(three.nextCursor).toBeNull();
    expect([...one.scripts, ...two.scripts, ...three.scripts].map((s: { key: string }) => s.key)).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((n) => `${SITE}/${n}.js`),
    );
  });
});

describe('the history', () => {
  it('is appended to and never rewritten: earlier rows stay as they were, nothing updates or deletes them', async () => {
    const { owner, domain } = await ownerWithDomain();
    const touched: Touch[] = [];
    const { db } = recordingDb(server.deps.db, touched);
    await updateInventory(db, { domainId: domain.id, snapshot: run(1, script(APP, 'sha384-A')) });
    await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP],
      justification: 'v1',
    });
    const early = await history(owner, domain.id, APP);
    await updateInventory(db, { domainId: domain.id, snapshot: await live(script(APP, 'sha384-B')) });
    await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP],
      justification: 'v2',
    });
    await updateInventory(db, { domainId: domain.id, snapshot: await live() });
    const late = await history(owner, domain.id, APP);
    expect(late.map((r) => r.type)).toEqual([
      'removed',
      'authorized',
      'pending-again',
      'content-changed',
      'authorized',
      'seen',
    ]);
    expect(late.slice(-early.length)).toEqual(early);
    const onHistory = touched.filter((t) => t.partition.startsWith(KEY_PREFIX.scriptHistory));
    expect(onHistory.length).toBeGreaterThan(0);
    expect(onHistory.filter((t) => !['PutCommand', 'BatchWriteCommand'].includes(t.command))).toEqual([]);
  });

  it("reads back a domain's rows of a period in the order they happened, rules' rows included", async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    await fold(domain.id, run(8, script(APP, 'sha384-B')));
    await fold(domain.id, run(15));
    await owner.client.post(`/api/domains/${domain.id}/scripts/rules`, {
      pattern: `${SITE}/*`,
      justification: 'Ours',
    });
    const rows = await listDomainScriptHistory(server.deps.db, domain.id, {
      from: '2026-11-05T00:00:00.000Z',
      to: '9999-12-31T00:00:00.000Z',
    });
    expect(rows.map((r) => r.type)).toEqual(['content-changed', 'removed', 'rule-added']);
    expect(rows[2]).toMatchObject({ pattern: `${SITE}/*`, byName: owner.username, scriptKey: null });
  });

  it('leaves nothing behind when the domain is deleted', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    await owner.client.post(`/api/domains/${domain.id}/scripts/rules`, {
      pattern: `${SITE}/*`,
      justification: 'Ours',
    });
    const mine = async () =>
      (await itemsMentioning(server, [domain.id])).filter((i) =>
        [KEY_PREFIX.scripts, KEY_PREFIX.scriptHistory].some((p) => String(i.pk).startsWith(p)),
      );
    expect((await mine()).length).toBeGreaterThanOrEqual(5); // script, rule, META, history rows
    expect((await owner.client.delete(`/api/domains/${domain.id}`)).status).toBe(200);
    expect(await mine()).toEqual([]);
  });
});

describe('deleting the owner', () => {
  it('leaves nothing behind when its owner is deleted', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    await owner.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
      keys: [APP],
      justification: 'Ours',
    });
    const user = await getUser(server.deps.db, owner.user.id);
    await deleteUserCascade({ ...server.deps, logger: createLogger('silent') }, user!);
    const left = (await itemsMentioning(server, [domain.id, owner.user.id])).filter((i) =>
      [KEY_PREFIX.scripts, KEY_PREFIX.scriptHistory].some((p) => String(i.pk).startsWith(p)),
    );
    expect(left).toEqual([]);
  });
});

describe('scripts only reports named', () => {
  it('lists them as seen by the field, pending, once each, until a crawl sees them', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    const at = '2026-11-02T10:00:00.000Z';
    const field = await recordFieldScripts(
      server.deps.db,
      { id: domain.id, url: `${SITE}/` },
      [APP, 'https://evil.test/skim.js', 'javascript:alert(1)', 'https://evil.test/skim.js#x'],
      at,
    );
    expect(field.events).toEqual([{ type: 'field-only', key: 'https://evil.test/skim.js' }]);
    expect(
      (
        await recordFieldScripts(
          server.deps.db,
          { id: domain.id, url: `${SITE}/` },
          ['https://evil.test/skim.js'],
          at,
        )
      ).events,
    ).toEqual([]);
    expect(byKey((await list(owner, domain.id)).scripts).get('https://evil.test/skim.js')).toMatchObject({
      seenBy: 'field',
      state: 'pending',
      party: 'third',
      digest: null,
      firstSeen: at,
    });
    // Not the crawl's to remove.
    expect((await fold(domain.id, run(8, script(APP, 'sha384-A')))).events).toEqual([]);
  });

  it('come from violation reports sent to the report endpoint', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    const skimmer = 'https://cdn.skim.test/s.js';
    for (const [blocked, directive] of [
      [skimmer, 'script-src-elem'],
      [APP, 'script-src-elem'], // known: not added again
      ['inline', 'script-src-elem'],
      ['https://img.test/a.png', 'img-src'],
    ]) {
      const res = await sendReport(server.url, domain.uuid, {
        'document-uri': `${SITE}/checkout`,
        'violated-directive': directive!,
        'blocked-uri': blocked!,
      });
      expect(res.status).toBe(204);
    }
    const shown = await until(
      async () => (await list(owner, domain.id)).scripts as { key: string; seenBy: string }[],
      (scripts) => scripts.some((s) => s.key === skimmer),
    );
    expect(shown.map((s) => [s.key, s.seenBy])).toEqual([
      [APP, 'crawl'],
      [skimmer, 'field'],
    ]);
    expect((await history(owner, domain.id, skimmer)).map((r) => r.type)).toEqual(['field-reported']);
  });

  it('holds a bounded number of them per domain', async () => {
    const { owner, domain } = await ownerWithDomain();
    const urls = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => `https://x${from + i}.test/a.js`);
    let added = 0;
    for (let i = 0; added < FIELD_SCRIPTS_PER_DOMAIN + 40 && i < 40; i++) {
      const { events } = await recordFieldScripts(
        server.deps.db,
        { id: domain.id, url: `${SITE}/` },
        urls(i * 20, 20),
        '2026-11-02T00:00:00.000Z',
      );
      added += events.length;
      if (events.length === 0) break;
    }
    expect(added).toBe(FIELD_SCRIPTS_PER_DOMAIN);
    expect((await list(owner, domain.id)).total).toBe(FIELD_SCRIPTS_PER_DOMAIN);
  }, 120_000);
});

describe('who may see and change it', () => {
  async function teamWithMember() {
    const { owner, domain } = await ownerWithDomain();
    const member = await registeredClient(server.url);
    const team = await (
      await owner.client.post('/api/teams', { name: 'Agency', slug: `t-${Date.now().toString(36)}${runs}` })
    ).json();
    const inv = await (
      await owner.client.post(`/api/teams/${team.id}/invitations`, {
        email: `${member.username}@example.test`,
      })
    ).json();
    const token = new URL(inv.link).pathname.split('/').pop();
    expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    return { owner, member, domain };
  }

  it('lets team members read the inventory and its history, and change nothing', async () => {
    const { owner, member, domain } = await teamWithMember();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    const rule = await (
      await owner.client.post(`/api/domains/${domain.id}/scripts/rules`, {
        pattern: `${SITE}/x*`,
        justification: 'x',
      })
    ).json();
    expect((await list(member, domain.id)).total).toBe(1);
    expect((await history(member, domain.id, APP)).length).toBe(1);
    for (const res of [
      await member.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
        keys: [APP],
        justification: 'me',
      }),
      await member.client.post(`/api/domains/${domain.id}/scripts/rules`, {
        pattern: `${SITE}/*`,
        justification: 'me',
      }),
      await member.client.delete(`/api/domains/${domain.id}/scripts/rules/${rule.rule.id}`),
    ]) {
      expect(res.status).toBe(403);
    }
    const after = await list(owner, domain.id);
    expect(after.counts.pending).toBe(1);
    expect(after.rules).toHaveLength(1);
  });

  it('lets an API token read with `read` and review only with `configurations:write`', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    const token = async (scopes: string[]) => {
      const res = await owner.client.post('/api/user/api-tokens', { name: scopes.join(' '), scopes });
      expect(res.status).toBe(201);
      return { authorization: `Bearer ${(await res.json()).token}` };
    };
    const pipeline = new HttpClient(server.url, null);
    const read = await token(['read']);
    const write = await token(['configurations:write']);
    expect((await pipeline.get(`/api/domains/${domain.id}/scripts`, read)).status).toBe(200);
    expect((await pipeline.get(historyPath(domain.id, APP), read)).status).toBe(200);
    const body = { keys: [APP], justification: 'Approved in change ticket 7' };
    const refused = await pipeline.post(`/api/domains/${domain.id}/scripts/authorize`, body, read);
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toMatch(/configurations:write/);
    expect((await pipeline.post(`/api/domains/${domain.id}/scripts/authorize`, body, write)).status).toBe(
      200,
    );
    expect((await list(owner, domain.id)).counts.authorized).toBe(1);
  });

  it("answers 404 for someone else's domain, whatever the route", async () => {
    const { domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    const other = await registeredClient(server.url);
    for (const res of [
      await other.client.get(`/api/domains/${domain.id}/scripts`),
      await other.client.get(historyPath(domain.id, APP)),
      await other.client.post(`/api/domains/${domain.id}/scripts/authorize`, {
        keys: [APP],
        justification: 'x',
      }),
      await other.client.post(`/api/domains/${domain.id}/scripts/rules`, {
        pattern: `${SITE}/*`,
        justification: 'x',
      }),
      await other.client.delete(`/api/domains/${domain.id}/scripts/rules/whatever`),
    ]) {
      expect(res.status).toBe(404);
    }
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    const { owner, domain } = await ownerWithDomain();
    await fold(domain.id, run(1, script(APP, 'sha384-A')));
    const base = `/api/domains/${domain.id}/scripts`;
    const cases: [string, unknown, RegExp][] = [
      ['/authorize', { keys: [APP], justification: '   ' }, /justification is required/],
      ['/authorize', { keys: [], justification: 'x' }, /at least one script/],
      [
        '/authorize',
        { keys: [APP, 'https://unknown.test/x.js'], justification: 'x' },
        /1 of the scripts named is not in the inventory/,
      ],
      ['/authorize', { keys: [APP], justification: 'x'.repeat(2_001) }, /2000/],
      ['/rules', { pattern: 'javascript:*', justification: 'x' }, /must start with https:\/\//],
      ['/rules', { pattern: `${SITE}/*`, justification: '' }, /justification is required/],
    ];
    for (const [path, body, message] of cases) {
      const res = await owner.client.post(`${base}${path}`, body);
      expect(res.status, path).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    for (const q of ['?state=gone', '?party=fifth', '?changed=maybe', '?cursor=-1', '?limit=100000']) {
      expect((await owner.client.get(`${base}${q}`)).status, q).toBe(400);
    }
    expect((await owner.client.get(historyPath(domain.id, 'https://unknown.test/x.js'))).status).toBe(404);
    const after = await list(owner, domain.id);
    expect(after.counts).toEqual({ pending: 1, authorized: 0, removed: 0 });
    expect(after.rules).toEqual([]);
    expect((await history(owner, domain.id, APP)).map((r) => r.type)).toEqual(['seen']);
  });
});

describe('cost', () => {
  it('an unchanged re-run of a 50-page site writes one item; its first analysis one per script and event', async () => {
    const { owner, domain } = await ownerWithDomain();
    const [first] = syntheticRuns({ pages: 50, scripts: 120, policy: { 'default-src': ["'self'"] } });
    const writes = (t: Touch[]) =>
      t.filter((x) =>
        [
          'PutCommand',
          'UpdateCommand',
          'DeleteCommand',
          'BatchWriteCommand',
          'TransactWriteCommand',
        ].includes(x.command),
      ).length;
    const firstTouches: Touch[] = [];
    await updateInventory(recordingDb(server.deps.db, firstTouches).db, {
      domainId: domain.id,
      snapshot: first,
    });
    const again: Touch[] = [];
    const rerun = { ...first, analysisId: 'again', completedAt: '2026-11-08T00:00:00.000Z' };
    const { events } = await updateInventory(recordingDb(server.deps.db, again).db, {
      domainId: domain.id,
      snapshot: rerun,
    });
    expect(events).toEqual([]);
    expect(writes(firstTouches)).toBe(120 + 120 + 1); // each script, its "seen" row, META
    expect(writes(again)).toBe(1);
    const shown = await list(owner, domain.id, '?limit=200');
    expect(shown.total).toBe(120);
    expect(
      shown.scripts.every(
        (s: { lastSeen: string; firstSeen: string }) =>
          s.lastSeen === rerun.completedAt && s.firstSeen === first.completedAt,
      ),
    ).toBe(true);
    expect(shown.lastRunAt).toBe(rerun.completedAt);
  }, 60_000);
});
