// Achievements unlocked by real actions over HTTP: adding a domain, turning on 2FA, receiving a violation
// report through the real endpoint; progress and stats; an unlock shown once; only one's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
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
