// Every place of the app that waits for its data says so: busy for assistive technology, and a status a
// screen reader reads out ("Loading the scripts..."), not a silent grey block. The reads a place waits for
// are held here, so the places stay loading while they are looked at; everything else is answered.
import type { HTTPRequest } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { intercepting } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

/** The loading places of a screen (the full-screen wait for the current user comes before the screen). */
const BUSY = 'main [aria-busy="true"]:not(button)';

interface Place {
  /** The place's data-testid, or the nearest one around it. */
  where: string;
  /** What its status says. */
  status: string;
}

/**
 * Opens `path` with the API reads `held` names kept unanswered, waits for `count` loading places (and, with
 * `showing`, for a place whose status says it: a screen can wait for a read of its own before the place
 * looked at is there, as the team tab for the team before its members), and returns them (then answers the
 * held reads).
 */
async function loadingPlaces(
  path: string,
  held: (apiPath: string) => boolean,
  count: number,
  showing = '',
): Promise<Place[]> {
  const kept: HTTPRequest[] = [];
  const answer = (request: HTTPRequest) => {
    if (held(new URL(request.url()).pathname)) kept.push(request);
    else void request.continue();
  };
  let places: Place[] = [];
  await intercepting(t.page, answer, async () => {
    try {
      await t.page.goto(`${t.server.url}${path}`, { waitUntil: 'domcontentloaded' });
      await t.page.waitForFunction(
        (selector: string, n: number, text: string) => {
          const busy = [...document.querySelectorAll(selector)];
          const says = (el: Element) => el.querySelector('[role="status"]')?.textContent?.trim() === text;
          return busy.length >= n && (text === '' || busy.some(says));
        },
        { timeout: 20_000 },
        BUSY,
        count,
        showing,
      );
      places = await t.page.$$eval(BUSY, (busy) =>
        busy.map((el) => ({
          where: el.closest('[data-testid]')?.getAttribute('data-testid') ?? 'screen',
          status: el.querySelector('[role="status"]')?.textContent?.trim() ?? '',
        })),
      );
    } finally {
      for (const request of kept.splice(0)) void request.continue().catch(() => {});
    }
  });
  return places;
}

const statuses = (places: readonly Place[]) => places.map((p) => `${p.where}: ${p.status || '(silent)'}`);

describe('a place waiting for its data', () => {
  it("says so on the domain screen: the screen's own skeleton, then each panel's", async () => {
    const created = await t.client.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com' });
    const { id } = (await created.json()) as { id: string };
    const own = `/api/domains/${id}`;
    const screen = await loadingPlaces(`/domains/${id}`, (p) => p === own, 1);
    expect(statuses(screen)).toEqual(['screen: Loading the domain...']);

    // The domain and its analyses answered, every panel's read held.
    const panelReads = (p: string) =>
      p.startsWith('/api/') &&
      p !== '/api/user' &&
      p !== own &&
      p !== `${own}/analyses` &&
      !p.startsWith('/api/achievements');
    const panels = await loadingPlaces(`/domains/${id}`, panelReads, 6);
    const shown = statuses(panels).join('\n');
    expect(panels.length, shown).toBeGreaterThanOrEqual(6);
    for (const place of panels) expect(place.status, shown).toMatch(/^Loading .+\.\.\.$/);
  });

  it('says so in Settings: the API tokens and the team', async () => {
    const tokens = await loadingPlaces(
      '/settings?tab=api-tokens',
      (p) => p === '/api/user/api-tokens',
      1,
      'Loading your API tokens...',
    );
    expect(statuses(tokens)).toEqual([expect.stringMatching(/: Loading your API tokens\.\.\.$/)]);

    await t.client.post('/api/teams', { name: 'Agency', slug: `agency-${Date.now()}` });
    const members = await loadingPlaces(
      '/settings?tab=team',
      (p) => p === '/api/teams/members',
      1,
      'Loading the members...',
    );
    expect(statuses(members)).toEqual([expect.stringMatching(/: Loading the members\.\.\.$/)]);
  });

  it('says so on the standalone analyzer while the analysis is read', async () => {
    const started = await t.client.post('/api/csp/analyze', {
      url: 'https://shop.example.com/',
      maxPages: 1,
    });
    const { analysisId } = (await started.json()) as { analysisId: string };
    const places = await loadingPlaces(
      `/csp-generator?analysis=${analysisId}`,
      (p) => p === `/api/csp/analyze/${analysisId}`,
      1,
    );
    expect(statuses(places)).toEqual(['generator-results: Loading the analysis...']);
  });
});
