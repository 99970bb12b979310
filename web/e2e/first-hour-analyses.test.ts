// Starting analyses as a new user does: a rapid triple click on 'Quick Start Analysis' starts one analysis
// (the buttons wait while a start is in flight; a later click meets the server's one-run-per-domain 409,
// shown with the spec's start-failure toast and the reason).
import type { Domain } from '@csp/shared/schemas/domain';
import type { HTTPResponse } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, recordToasts, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const QUICK_START = 'xpath/.//button[normalize-space()="Quick Start Analysis"]';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createDomain(name: string, url: string): Promise<Domain> {
  const res = await t.client.post('/api/domains', { name, url });
  expect(res.status).toBe(201);
  return (await res.json()) as Domain;
}

describe('three clicks, one analysis', () => {
  it('a rapid triple click on Quick Start starts one analysis; a late click is refused with the reason', async () => {
    t.guard.allowFailedRequest('/api/csp-analyses', 409);
    const domain = await createDomain('Triple', 'https://triple.example.com');
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector(QUICK_START);
    // The screen has settled (its reads answered, nothing moves any more): a user aims at a button that stays.
    await t.page.waitForNetworkIdle({ idleTime: 300 });
    const answers: number[] = [];
    const onResponse = (r: HTTPResponse) => {
      if (r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/csp-analyses') {
        answers.push(r.status());
      }
    };
    t.page.on('response', onResponse);
    // Every toast shown: a late click's refusal replaces 'Analysis Started' at once (one toast at a time).
    const toasts = await recordToasts(t.page);
    // Three clicks of a real mouse, 150 ms apart (as reported), wherever the button is at each.
    for (let i = 0; i < 3; i++) {
      const button = await t.page.$(QUICK_START);
      const box = await button!.boundingBox();
      await t.page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
      await sleep(150);
    }
    await t.page
      .waitForFunction(
        () =>
          (window as unknown as { __toasts: string[] }).__toasts.some((x) => x.includes('Analysis Started')),
        { timeout: 15_000 },
      )
      .catch(async (error: Error) => {
        throw new Error(
          `${error.message}; toasts: ${JSON.stringify(await toasts())}; answers: ${JSON.stringify(answers)}`,
        );
      });
    await sleep(1000); // any later answer has arrived by now
    // A click answered 409 said why.
    if (answers.includes(409)) {
      expect(
        (await toasts()).some((x) => x.includes('An analysis of this domain is already waiting or running.')),
      ).toBe(true);
    }
    t.page.off('response', onResponse);
    expect(answers.filter((s) => s === 201)).toHaveLength(1);
    expect(answers.every((s) => s === 201 || s === 409)).toBe(true);
    const list = (await (await t.client.get(`/api/domains/${domain.id}/analyses`)).json()) as unknown[];
    expect(list).toHaveLength(1);
    await dismissToasts(t.page);

    // Another click now: the server refuses it, and the toast gives the spec's words and the reason.
    await t.page.click(QUICK_START);
    const refused = await waitForToast(t.page, 'Error');
    expect(refused.variant).toBe('destructive');
    expect(refused.text).toContain('Failed to start analysis. Please try again.');
    expect(refused.text).toContain('An analysis of this domain is already waiting or running.');
    expect(await (await t.client.get(`/api/domains/${domain.id}/analyses`)).json()).toHaveLength(1);
    await dismissToasts(t.page);
  }, 90_000);

  it('two start buttons clicked in one tick send one POST: every start of the domain waits for it', async () => {
    const domain = await createDomain('Two buttons', 'https://two-buttons.example.com');
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('xpath/.//button[normalize-space()="Start Your First Analysis"]');
    let posts = 0;
    const onRequest = (r: { method(): string; url(): string }) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/csp-analyses') posts += 1;
    };
    t.page.on('request', onRequest);
    await t.page.evaluate(() => {
      const buttons = [...document.querySelectorAll('button')].filter((b) =>
        ['Quick Start Analysis', 'Start Your First Analysis'].includes(b.textContent?.trim() ?? ''),
      );
      for (const b of buttons) b.click();
    });
    await waitForToast(t.page, 'Analysis Started');
    await sleep(500);
    t.page.off('request', onRequest);
    expect(posts).toBe(1);
    expect(await (await t.client.get(`/api/domains/${domain.id}/analyses`)).json()).toHaveLength(1);
    await dismissToasts(t.page);
  }, 90_000);
});
