// The Scheduled Analyses card of the domain screen in the browser: off and empty at first; the owner saves a
// weekly schedule with its crawl settings and sees its next run; a bad setting is refused with the server's
// message and nothing changes; the history shows a run the dispatcher started (linked to its analysis) and
// one it refused (with the reason); a team member sees it all read-only. Screenshots at 1440 and 390 px go
// to /tmp/shots-schedules/ (SCHEDULE_SHOTS=0 skips them).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DOMAIN_BUSY_MESSAGE } from '@csp/functions/src/store/domain-run-guard';
import { registeredClient } from '@csp/functions/src/testing/api-server';
import { dispatchDueSchedules } from '@csp/functions/src/watch/dispatch';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { formatRunTime } from '../src/features/domains/utils/run-time';
import {
  clickText,
  dismissAchievementOverlay,
  fill,
  visibleText,
  waitForPath,
  waitForToast,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const shotsDir = process.env.SCHEDULE_SHOTS === '0' ? null : '/tmp/shots-schedules';

async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  for (const [width, height, label] of [
    [1440, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewport({ width, height });
    await new Promise((r) => setTimeout(r, 300));
    const card = await page.waitForSelector('[data-testid="schedule-card"]');
    await card!.screenshot({ path: join(shotsDir, `${name}-${label}.png`) });
  }
  await page.setViewport({ width: 1280, height: 800 });
}

const cardText = (page: Page) =>
  page.$eval('[data-testid="schedule-card"]', (el) => (el as HTMLElement).innerText.replace(/\s+/g, ' '));

describe('the Scheduled Analyses card', () => {
  it('saves a schedule, shows its next run and the history of scheduled runs', async () => {
    const { page, server } = t;
    const domain = await (
      await t.client.post('/api/domains', { name: 'Shop', url: 'http://127.0.0.1:9/' })
    ).json();
    const path = `/api/domains/${domain.id}/schedule`;
    // The first domain's achievement card comes up on the dashboard: closed there as a user closes it.
    await page.goto(`${server.url}/dashboard`, { waitUntil: 'load' });
    await dismissAchievementOverlay(page);
    await page.goto(`${server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="next-run"]');
    expect(await cardText(page)).toContain('Not scheduled');
    expect(await cardText(page)).toContain('No scheduled runs yet');
    await shoot(page, 'off');

    // In the middle of the screen, clear of the sticky header.
    await page.$eval('[data-testid="next-run"]', (el) => el.scrollIntoView({ block: 'center' }));
    await clickText(page, 'span', 'Weekly');
    const select = (label: string) => `xpath/.//label[normalize-space()="${label}"]/following::select[1]`;
    const dayHandle = await page.waitForSelector(select('Day'));
    await dayHandle!.select('2');
    // The time of day: an hour and a minute, 24 h.
    await (await page.waitForSelector('[data-testid="schedule-card"] select[aria-label="Hour"]'))!.select(
      '06',
    );
    await (await page.waitForSelector('[data-testid="schedule-card"] select[aria-label="Minute"]'))!.select(
      '00',
    );
    const zone = await page.waitForSelector(select('Time zone'));
    await zone!.select('UTC');
    const pagesInput = await page.$eval('[data-testid="schedule-card"] input[type="number"]', (el) => el.id);
    await fill(page, `[id="${pagesInput}"]`, '5');
    await clickText(page, 'button', 'Save Schedule');
    await waitForToast(page, 'Schedule saved');

    const saved = await (await t.client.get(path)).json();
    expect(saved.schedule).toEqual({ frequency: 'weekly', weekday: 2, time: '06:00', timeZone: 'UTC' });
    expect(saved.crawlRequest).toMatchObject({ maxPages: 5, url: domain.url });
    const next = formatRunTime(saved.nextRunAt, 'UTC');
    expect(next).toMatch(/^Tue \d+ \w{3}, 06:00 UTC$/);
    await page.waitForFunction(
      (text: string) => document.querySelector('[data-testid="next-run"]')?.textContent?.includes(text),
      {},
      `Next run: ${next}`,
    );

    // Bad input: the server's message, and nothing saved.
    await fill(page, `[id="${pagesInput}"]`, '0');
    await clickText(page, 'button', 'Save Schedule');
    await page.waitForFunction(() => document.body.innerText.includes('maxPages must be between 1 and 500'));
    expect(await (await t.client.get(path)).json()).toEqual(saved);

    // The dispatcher runs twice: the first time starts an analysis (it stays pending here), a week later the
    // domain is still busy with it, so that run is refused.
    const deps = { ...server.deps };
    const due = Date.parse(saved.nextRunAt);
    expect((await dispatchDueSchedules(deps, due + 1_000)).started).toBe(1);
    expect((await dispatchDueSchedules(deps, due + 7 * 86_400_000 + 1_000)).refused).toBe(1);
    const [refused, started] = (await (await t.client.get(path)).json()).history;

    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('[data-testid="schedule-history"]');
    const rows = await page.$$eval('[data-testid="schedule-history"] li', (lis) =>
      lis.map((li) => (li as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Refused');
    expect(rows[0]).toContain(DOMAIN_BUSY_MESSAGE);
    expect(rows[1]).toContain('Started');
    expect(rows[1]).toContain('View analysis');
    // Each due time is written as the next run was, in the schedule's zone (a Tuesday, 06:00 UTC).
    expect(rows[1]).toContain(formatRunTime(started.at, 'UTC'));
    expect(rows[1]).toMatch(/^Tue \d+ \w{3}, 06:00 UTC /);
    expect(refused.outcome).toBe('refused');
    await shoot(page, 'weekly-with-history');

    await clickText(page, 'a', 'View analysis');
    await waitForPath(page, `/analysis/${started.analysisId}`);
  }, 120_000);

  it('is read-only for a team member', async () => {
    const { page, server } = t;
    const owner = await registeredClient(server.url, { firstName: 'Olive' });
    const domain = await (
      await owner.client.post('/api/domains', { name: 'Owner Site', url: 'https://owner.example/' })
    ).json();
    expect(
      (
        await owner.client.put(`/api/domains/${domain.id}/schedule`, {
          frequency: 'daily',
          time: '07:30',
          timeZone: 'UTC',
          crawlRequest: { maxPages: 20 },
        })
      ).status,
    ).toBe(200);
    const team = await (
      await owner.client.post('/api/teams', { name: 'Agency', slug: 'agency-sched' })
    ).json();
    const me = await (await t.client.get('/api/user')).json();
    const invitation = await (
      await owner.client.post(`/api/teams/${team.id}/invitations`, { email: me.email })
    ).json();
    const token = new URL(invitation.link).pathname.split('/').pop();
    expect((await t.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);

    await page.goto(`${server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="schedule-summary"]');
    const text = await cardText(page);
    expect(text).toContain('Every day at 07:30 (UTC), up to 20 pages');
    expect(text).toMatch(/Next run: \w{3} \d+ \w{3}, 07:30 UTC/);
    expect(text).toContain("Only the domain's owner can change the schedule.");
    expect(await page.$('[data-testid="schedule-card"] form')).toBeNull();
    expect(await visibleText(page)).not.toContain('Save Schedule');
    await shoot(page, 'team-member');
  }, 60_000);
});
