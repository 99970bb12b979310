// `npm start`'s schedule timer, through the real local server: with its clock moved past a domain's next run
// (not waited for), the timer starts the analysis and the real crawler crawls the loopback fixture site to
// completion; the run is in the schedule's history.
import { describe, expect, it } from 'vitest';
import { startFixtureSites } from '../crawler/fixtures/sites';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { perTestServers } from '../testing/per-test-servers';
import { until } from '../testing/reports';

const live = perTestServers();

describe('schedules in local mode', () => {
  it('fire on the server’s clock and crawl the site', async () => {
    live.sites = await startFixtureSites({
      mainOnly: () => ({
        '/': { type: 'text/html', body: '<!doctype html><title>home</title><a href="/b">b</a>' },
        '/b': { type: 'text/html', body: '<!doctype html><title>b</title><script src="/b.js"></script>' },
        '/b.js': { type: 'text/javascript', body: 'document.title += "!";' },
      }),
    });
    let now = Date.now();
    live.server = await startTestServer({
      crawlHandler: (deps) => loopbackCrawlHandler(deps, live.blobDir, { crawlOptions: { rerender: false } }),
      clock: () => now,
      scheduleEveryMs: 100,
    });
    const { client } = await registeredClient(live.server.url);
    const created = await client.post('/api/domains', {
      name: 'Fixture',
      url: `${live.sites.origins.main}/`,
    });
    const domain = (await created.json()) as { id: string };
    const path = `/api/domains/${domain.id}/schedule`;
    const saved = await client.put(path, {
      frequency: 'weekly',
      weekday: 3,
      time: '23:45',
      timeZone: 'Asia/Tokyo',
      crawlRequest: { maxPages: 2, crawlDelay: 0 },
    });
    const dueAt = Date.parse((await saved.json()).nextRunAt);
    const analyses = async () =>
      (await (await client.get(`/api/domains/${domain.id}/analyses`)).json()) as {
        id: string;
        status: string;
        trigger: string;
        totalPages: number;
      }[];
    // Several ticks before the due time: nothing starts.
    await new Promise((r) => setTimeout(r, 500));
    expect(await analyses()).toEqual([]);

    now = dueAt + 30_000;
    const done = await until(analyses, (list) => list[0]?.status === 'completed', 90_000);
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ status: 'completed', trigger: 'schedule', totalPages: 2 });
    const view = await (await client.get(path)).json();
    expect(view.history).toMatchObject([{ outcome: 'started', analysisId: done[0]!.id }]);
    expect(Date.parse(view.nextRunAt)).toBe(dueAt + 7 * 86_400_000);
  }, 150_000);
});
