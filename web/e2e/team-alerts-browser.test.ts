// A team's alert settings in the browser: on Settings › Team the owner reads that nothing applies before a
// save, chooses the kinds and the members e-mailed, saves, adds a team webhook (a loopback receiver) and
// "Send test" reaches it; on a team domain's Monitoring screen the switch says the team's settings apply,
// and turned off (kept over a reload) the domain's own do. Screenshots at 1440 and 390 px go to
// /tmp/shots-talerts/.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registeredClient } from '@csp/functions/src/testing/api-server';
import { closeServer } from '@csp/functions/src/testing/close-server';
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markUnlocksSeen } from './accounts';
import { dismissToasts, fill, visibleText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const SHOTS = '/tmp/shots-talerts';

const hooks: string[] = [];
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      hooks.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/services/T0123ABCD/B0456EFGH/team`;
});

afterAll(async () => {
  await closeServer(receiver);
});

const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  // No isMobile/hasTouch: changing them makes puppeteer reload the page, which would lose what is shown.
  { name: 'phone', width: 390, height: 844, deviceScaleFactor: 2 },
] as const;

/** One part of the screen at both widths; nothing in it may reach past the phone's width. */
async function shoot(page: Page, name: string, selector: string) {
  for (const vp of WIDTHS) {
    await page.setViewport(vp);
    await page.evaluate(() => window.scrollTo(0, 0));
    await new Promise((r) => setTimeout(r, 300));
    await page.waitForSelector(selector);
    const box = await page.$eval(selector, (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
    });
    const clip = { ...box, x: Math.max(0, box.x - 8), width: Math.min(vp.width, box.width + 16) };
    await page.screenshot({ path: `${SHOTS}/${name}-${vp.name}.png`, clip, captureBeyondViewport: true });
    const right = await page.$eval(selector, (root) =>
      Math.max(...[root, ...root.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
    );
    expect(right, `${name}: wider than the phone`).toBeLessThanOrEqual(vp.width);
  }
  await page.setViewport(WIDTHS[0]);
}

/** Clicks an element once scrolled to the middle of the screen (the sticky header covers the top). */
async function clickCentered(page: Page, selector: string) {
  const el = await page.waitForSelector(selector);
  await el!.evaluate((node) => node.scrollIntoView({ block: 'center' }));
  await new Promise((r) => setTimeout(r, 200));
  await el!.click();
}

/** Continues past an achievement overlay, if one comes up. */
async function continuePastOverlay(page: Page) {
  for (let i = 0; i < 5; i++) {
    const overlay = await page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: 2_000 })
      .catch(() => null);
    if (!overlay) return;
    await overlay.click();
    await new Promise((r) => setTimeout(r, 300));
  }
}

let owner: HttpClient;
let teamId = '';
let domainId = '';

describe("a team's alert settings", () => {
  it('are set once on the team screen and followed by a team domain until its switch is turned off', async () => {
    owner = t.client;
    const team = await (
      await owner.post('/api/teams', { name: 'Agency', slug: `agency-${Date.now()}` })
    ).json();
    const member = await registeredClient(t.server.url, { firstName: 'Ada', lastName: 'Lovelace' });
    const invited = await (
      await owner.post(`/api/teams/${team.id}/invitations`, { email: `${member.username}@example.test` })
    ).json();
    const token = new URL(invited.link).pathname.split('/').pop();
    expect((await member.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    const domain = await (
      await owner.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com/' })
    ).json();
    teamId = team.id;
    domainId = domain.id;
    await markUnlocksSeen(owner);

    const page = t.page;
    await page.goto(`${t.server.url}/settings?tab=team`, { waitUntil: 'load' });
    await continuePastOverlay(page);
    await page.waitForSelector('[data-testid="team-alerts-unsaved"]', { timeout: 15_000 });
    // The owner is e-mailed by default; the member is offered.
    const recipients = await page.$$eval('[data-testid="team-alert-recipient"]', (els) =>
      els.map((el) => ({ id: (el as HTMLInputElement).value, checked: (el as HTMLInputElement).checked })),
    );
    expect(recipients).toEqual([
      { id: t.user.id, checked: true },
      { id: member.user.id, checked: false },
    ]);
    await clickCentered(page, `[data-testid="team-alert-recipient"][value="${member.user.id}"]`);
    await clickCentered(page, '[data-testid="alert-kind-report-spike"]');
    await clickCentered(page, '[data-testid="save-team-alert-settings"]');
    await waitForToast(page, "Team's alert settings saved");
    await page.waitForFunction(() => !document.querySelector('[data-testid="team-alerts-unsaved"]'));
    await dismissToasts(page);

    await fill(page, '[data-testid="team-alerts"] [data-testid="webhook-url-input"]', receiverUrl);
    await clickCentered(page, '[data-testid="team-alerts"] [data-testid="add-webhook"]');
    await page.waitForSelector('[data-testid="webhook-secret-value"]');
    await clickCentered(page, '[data-testid="webhook-secret-done"]');
    await page.waitForFunction(() => !document.querySelector('dialog[open]'));
    await page.waitForSelector('[data-testid="team-alerts"] [data-testid="webhook"]');
    await clickCentered(page, '[data-testid="team-alerts"] [data-testid="send-test-alert"]');
    await page.waitForSelector('[data-testid="team-alerts"] [data-testid="test-result"]');
    const results = await page.$$eval('[data-testid="team-alerts"] [data-testid="test-result"]', (els) =>
      els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    // No mail server in this test: the e-mails say why; the webhook got it.
    expect(results).toHaveLength(3);
    expect(results.find((r) => r.includes(receiverUrl))).toContain('Delivered (HTTP 200)');
    expect(results.find((r) => r.includes('E-mail to Ada Lovelace'))).toContain(
      'No mail server is configured',
    );
    expect(JSON.parse(hooks.at(-1)!).alert).toMatchObject({ kind: 'test', domainName: 'Agency' });
    await shoot(page, 'team-alerts', '[data-testid="team-alerts"]');

    // Saved: over a reload the choice is kept.
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('[data-testid="team-alert-recipient"]', { timeout: 15_000 });
    expect(
      await page.$eval('[data-testid="alert-kind-report-spike"]', (el) => (el as HTMLInputElement).checked),
    ).toBe(false);

    await page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await continuePastOverlay(page);
    await page.waitForSelector('[data-testid="alert-source"]', { timeout: 15_000 });
    expect(await page.$eval('[data-testid="alert-settings-applies"]', (el) => el.textContent)).toContain(
      'The alert settings of the team Agency apply to this domain',
    );
    expect(
      await page.$eval('[data-testid="use-team-alert-settings"]', (el) => el.getAttribute('aria-checked')),
    ).toBe('true');
    await shoot(page, 'domain-follows-team', '[data-testid="alert-source"]');

    await clickCentered(page, '[data-testid="use-team-alert-settings"]');
    await waitForToast(page, "This domain's own alert settings apply");
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('[data-testid="alert-source"]', { timeout: 15_000 });
    expect(await page.$eval('[data-testid="alert-settings-applies"]', (el) => el.textContent)).toBe(
      "This domain's own alert settings below apply.",
    );
    expect(
      await page.$eval('[data-testid="use-team-alert-settings"]', (el) => el.getAttribute('aria-checked')),
    ).toBe('false');
    expect(await visibleText(page)).toContain('E-mail the owner');
    await shoot(page, 'domain-own-settings', '[data-testid="alert-source"]');
  }, 180_000);

  it('are read by a member, with no control that changes them and webhook addresses masked', async () => {
    await t.signInAgain();
    const member = t.client;
    const me = await (await member.get('/api/user')).json();
    const invited = await owner.post(`/api/teams/${teamId}/invitations`, { email: me.email });
    const invitation = await invited.json();
    expect(invited.status, JSON.stringify(invitation)).toBe(201);
    const token = new URL(invitation.link).pathname.split('/').pop();
    expect((await member.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    await markUnlocksSeen(member);

    const page = t.page;
    await page.goto(`${t.server.url}/settings?tab=team`, { waitUntil: 'load' });
    await continuePastOverlay(page);
    await page.waitForSelector('[data-testid="team-alert-settings-read-only"]', { timeout: 15_000 });
    await page.waitForSelector('[data-testid="team-alerts"] [data-testid="webhook"]');
    const section = await page.$eval('[data-testid="team-alerts"]', (el) => (el as HTMLElement).innerText);
    expect(section).toMatch(/E-mailed to:\s*Grace Lovelace, Ada Lovelace/);
    expect(section).not.toContain(receiverUrl);
    expect(section).toContain(`${new URL(receiverUrl).origin}/…${receiverUrl.slice(-4)}`);
    expect(await page.$$('[data-testid="team-alerts"] input')).toHaveLength(0);
    expect(await page.$$('[data-testid="team-alerts"] button')).toHaveLength(0);
    await shoot(page, 'team-alerts-member', '[data-testid="team-alerts"]');

    await page.goto(`${t.server.url}/domains/${domainId}`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="alert-source"]', { timeout: 15_000 });
    expect(await page.$('[data-testid="use-team-alert-settings"]')).toBeNull();
    expect(await page.$eval('[data-testid="alert-settings-applies"]', (el) => el.textContent)).toBe(
      "This domain's own alert settings below apply.",
    );
  }, 120_000);
});
