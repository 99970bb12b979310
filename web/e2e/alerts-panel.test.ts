// The Alerts panel of the domain screen in the browser, against a real webhook receiver on loopback: the
// owner adds a webhook and sees its secret once, "Send test" shows each channel's result and the receiver
// got a delivery whose signature verifies with the secret shown (a tampered body does not), the chosen kinds,
// days and e-mail persist over a reload, a bad number is refused before anything is saved, the webhook is
// removed behind a confirmation; an alert raised as a crawl or the reports raise it is listed with its count
// and link. A member of the owner's team sees the same panel with no control that changes it. Screenshots
// at 1440 and 390 px go to /tmp/shots-alerts/.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { raiseAndQueue } from '@csp/functions/src/alerts/deliver';
import { SIGNATURE_HEADER, verifyWebhookSignature } from '@csp/functions/src/alerts/webhook-signature';
import { closeServer } from '@csp/functions/src/testing/close-server';
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmDialog, dismissToasts, fill, visibleText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const SHOTS = '/tmp/shots-alerts';

interface Received {
  body: string;
  signature: string | undefined;
}
const received: Received[] = [];
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
      received.push({ body, signature: req.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // A long path, as real receivers' addresses are: it must wrap on a phone.
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/services/T0123ABCD/B0456EFGH/x1y2z3a4b5c6d7e8f9g0h1i2`;
});

afterAll(async () => {
  await closeServer(receiver);
});

const WIDTHS = [
  { name: 'desktop', width: 1440, height: 900 },
  // No isMobile/hasTouch: changing them makes puppeteer reload the page, which would lose what is shown.
  { name: 'phone', width: 390, height: 844, deviceScaleFactor: 2 },
] as const;

/**
 * The Alerts section (or the open dialog) at both widths, the phone's also in screen-high slices (easier to
 * look at); nothing in it may reach past the phone's width.
 */
async function shoot(page: Page, name: string, selector = 'section[aria-labelledby="domain-alerts-title"]') {
  for (const vp of WIDTHS) {
    await page.setViewport(vp);
    // From the top, so the sticky header stays there and does not cover the part shot.
    await page.evaluate(() => window.scrollTo(0, 0));
    await new Promise((r) => setTimeout(r, 300));
    await page.waitForSelector(selector);
    const box = await page.$eval(selector, (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x + window.scrollX, y: r.y + window.scrollY, width: r.width, height: r.height };
    });
    const clip = { ...box, x: Math.max(0, box.x - 8), width: Math.min(vp.width, box.width + 16) };
    await page.screenshot({ path: `${SHOTS}/${name}-${vp.name}.png`, clip, captureBeyondViewport: true });
    if (vp.name === 'phone') {
      for (let y = 0, i = 1; y < clip.height; y += vp.height, i++) {
        const height = Math.min(vp.height, clip.height - y);
        await page.screenshot({
          path: `${SHOTS}/${name}-${vp.name}-${i}.png`,
          clip: { ...clip, y: clip.y + y, height, scale: 0.5 },
          captureBeyondViewport: true,
        });
      }
      const right = await page.$eval(selector, (root) =>
        Math.max(...[root, ...root.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
      );
      expect(right, `${name}: wider than the phone`).toBeLessThanOrEqual(vp.width);
    }
  }
  await page.setViewport(WIDTHS[0]);
}

const checked = (page: Page, testId: string) =>
  page.$eval(`[data-testid="${testId}"]`, (el) => (el as HTMLInputElement).checked);

async function openDomain(page: Page, baseUrl: string, domainId: string) {
  // The panel's lists refresh every 30 s: the network never idles.
  await page.goto(`${baseUrl}/domains/${domainId}`, { waitUntil: 'load' });
  await page.waitForSelector('[data-testid="alerts-panel"]');
  await page.waitForSelector('[data-testid="alert-row"]', { timeout: 15_000 });
  await page.waitForSelector('[data-testid="alert-webhooks"]', { timeout: 15_000 });
  // A first domain unlocks an achievement, whose overlay covers the screen: continue past it.
  const overlay = await page
    .waitForSelector('[data-testid="achievement-continue"]', { timeout: 2_000 })
    .catch(() => null);
  if (overlay) {
    await overlay.click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="achievement-continue"]'));
  }
}

let owner: HttpClient;
let domainId: string;

describe('the Alerts panel', () => {
  it('lets the owner add a webhook, see its secret once, send a test that arrives signed, save what alerts, and remove it', async () => {
    owner = t.client;
    const domain = await (
      await owner.post('/api/domains', { name: 'Shop', url: 'https://shop.example.com/' })
    ).json();
    domainId = domain.id;
    // One cause raised twice: one alert, counted.
    const raised = {
      domainId,
      domainName: 'Shop',
      kind: 'script-changed' as const,
      cause: 'https://cdn.example.net/checkout.js',
      summary:
        'The content of https://cdn.example.net/checkout.js changed on 3 pages since it was authorized',
      path: `/domains/${domainId}/scripts`,
    };
    // Nothing raised or sent yet: the lists say so.
    await t.page.goto(`${t.server.url}/domains/${domainId}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="alert-webhooks"]');
    await t.page.waitForFunction(
      () =>
        document.body.innerText.includes('No alerts yet') &&
        document.body.innerText.includes('Nothing sent yet'),
      { timeout: 15_000 },
    );
    const before = Date.now() - 3_600_000;
    await raiseAndQueue(t.server.deps.db, raised, before);
    await raiseAndQueue(t.server.deps.db, raised, before + 60_000);

    const page = t.page;
    await openDomain(page, t.server.url, domainId);
    const row = await page.$eval('[data-testid="alert-row"]', (el) => (el as HTMLElement).innerText);
    expect(row).toContain('Script content changed');
    expect(row).toContain(raised.summary);
    expect(row).toMatch(/2 times since/);
    expect(
      await page.$eval('[data-testid="alert-row"] a', (a) => new URL((a as HTMLAnchorElement).href).pathname),
    ).toBe(raised.path);
    expect(await visibleText(page)).toContain('No webhooks yet');

    // Not an http(s) address: refused in the form, nothing sent.
    await fill(page, '[data-testid="webhook-url-input"]', 'ftp://files.example.com/hook');
    await page.click('[data-testid="add-webhook"]');
    await page.waitForSelector('#webhook-url-error');
    expect(await page.$eval('#webhook-url-error', (el) => el.textContent)).toBe(
      'Please enter an http(s) URL',
    );

    await fill(page, '[data-testid="webhook-url-input"]', receiverUrl);
    await page.click('[data-testid="add-webhook"]');
    await page.waitForSelector('[data-testid="webhook-secret-value"]');
    const secret = await page.$eval(
      '[data-testid="webhook-secret-value"]',
      (el) => (el as HTMLTextAreaElement).value,
    );
    expect(secret).toMatch(/^whsec_[\w-]{32}$/);
    const help = await page.$eval(
      '[data-testid="webhook-verify-help"]',
      (el) => (el as HTMLElement).innerText,
    );
    expect(help).toContain('X-CSP-Generator-Signature: t=…,v1=…');
    expect(help).toContain('HMAC-SHA256');
    expect(await page.$('[data-testid="webhook-verify-help"] a')).toBeNull();
    await shoot(page, 'alerts-webhook-secret', 'dialog[open]');
    await page.click('[data-testid="webhook-secret-done"]');
    await page.waitForFunction(() => !document.querySelector('dialog[open]'));
    // Once: the list shows only its last characters, now and after a reload.
    await page.waitForSelector('[data-testid="webhook"]');
    for (let i = 0; i < 2; i++) {
      const text = await visibleText(page);
      expect(text).not.toContain(secret);
      expect(await page.$eval('[data-testid="webhook"]', (el) => (el as HTMLElement).innerText)).toContain(
        `secret …${secret.slice(-4)}`,
      );
      if (i === 0) await openDomain(page, t.server.url, domainId);
      await page.waitForSelector('[data-testid="webhook"]');
    }

    // Send test: each channel's result inline. No mail server here: the e-mail fails and says why.
    await page.click('[data-testid="send-test-alert"]');
    await page.waitForSelector('[data-testid="test-result"]');
    const results = await page.$$eval('[data-testid="test-result"]', (els) =>
      els.map((el) => (el as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    expect(results).toHaveLength(2);
    expect(results.find((r) => r.includes(receiverUrl))).toContain('Delivered (HTTP 200)');
    expect(results.find((r) => r.includes('E-mail'))).toContain('Failed: No mail server is configured');
    // The receiver got it, signed with the secret the dialog showed.
    expect(received).toHaveLength(1);
    const delivery = received[0]!;
    expect(verifyWebhookSignature(secret, delivery.body, delivery.signature)).toEqual({ valid: true });
    expect(
      verifyWebhookSignature(secret, delivery.body.replace('Test', 'Tset'), delivery.signature).valid,
    ).toBe(false);
    expect(JSON.parse(delivery.body).alert.kind).toBe('test');
    // The deliveries list shows it (and the failed e-mail).
    await page.waitForFunction(
      (url: string) =>
        [...document.querySelectorAll<HTMLElement>('[data-testid="delivery-row"]')].some(
          (r) => r.innerText.includes(url) && r.innerText.includes('Delivered'),
        ),
      { timeout: 15_000 },
      receiverUrl,
    );
    const failedRow = await page.$$eval('[data-testid="delivery-row"]', (rows) =>
      rows.map((r) => (r as HTMLElement).innerText).find((r) => r.includes('Failed')),
    );
    expect(failedRow).toContain('No mail server is configured');
    await shoot(page, 'alerts-owner');

    // What alerts: a bad number is refused in the form and nothing is saved.
    expect(await checked(page, 'alert-kind-drift')).toBe(true);
    await page.click('[data-testid="alert-kind-drift"]');
    await page.click('[data-testid="alert-kind-report-spike"]');
    await page.click('[data-testid="alert-email"]');
    await fill(page, '[data-testid="alert-pending-days"]', '0');
    await page.click('[data-testid="save-alert-settings"]');
    await page.waitForSelector('[data-testid="alert-pending-days"][aria-invalid="true"]');
    expect(await visibleText(page)).toContain('Enter a number of days from 1 to 90');
    expect((await (await owner.get(`/api/domains/${domainId}/alert-settings`)).json()).pendingDays).toBe(7);
    await fill(page, '[data-testid="alert-pending-days"]', '14');
    await page.click('[data-testid="save-alert-settings"]');
    await waitForToast(page, 'Alert settings saved');
    await dismissToasts(page);
    const saved = await (await owner.get(`/api/domains/${domainId}/alert-settings`)).json();
    expect(saved).toMatchObject({ email: false, pendingDays: 14 });
    expect(saved.kinds).not.toContain('drift');
    expect(saved.kinds).not.toContain('report-spike');
    expect(saved.kinds).toContain('script-changed');
    // Saved is saved: Save has nothing left to do.
    expect(
      await page.$eval('[data-testid="save-alert-settings"]', (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);

    await openDomain(page, t.server.url, domainId);
    await page.waitForSelector('[data-testid="alert-kind-drift"]');
    expect(await checked(page, 'alert-kind-drift')).toBe(false);
    expect(await checked(page, 'alert-kind-report-spike')).toBe(false);
    expect(await checked(page, 'alert-kind-script-changed')).toBe(true);
    expect(await checked(page, 'alert-email')).toBe(false);
    expect(
      await page.$eval('[data-testid="alert-pending-days"]', (el) => (el as HTMLInputElement).value),
    ).toBe('14');

    // Remove, behind a confirmation.
    await page.click('[data-testid="remove-webhook"]');
    await confirmDialog(page, 'Remove');
    await waitForToast(page, 'Webhook removed');
    await page.waitForFunction(() => !document.querySelector('[data-testid="webhook"]'));
    expect(await visibleText(page)).toContain('No webhooks yet');
    expect((await (await owner.get(`/api/domains/${domainId}/alert-settings`)).json()).webhooks).toEqual([]);

    // E-mail off and no webhook: Send test says why it sent nothing, in place.
    t.guard.allowFailedRequest(`/api/domains/${domainId}/alerts/test`, 400);
    await page.click('[data-testid="send-test-alert"]');
    await page.waitForSelector('[data-testid="test-alert-error"]');
    expect(
      await page.$eval('[data-testid="test-alert-error"]', (el) => (el as HTMLElement).innerText),
    ).toContain('Nothing to send to: turn on e-mail or add a webhook first');
    expect(received).toHaveLength(1);
  }, 180_000);

  it("shows a team member the owner's alerts with no control that changes them", async () => {
    // A webhook to list (the owner's, added through the API).
    expect(
      (await owner.post(`/api/domains/${domainId}/alert-settings/webhooks`, { url: receiverUrl })).status,
    ).toBe(201);
    await t.signInAgain();
    const member = t.client;
    const me = await (await member.get('/api/user')).json();
    const team = await (await owner.post('/api/teams', { name: 'Agency', slug: 'agency-alerts-e2e' })).json();
    const invitation = await (
      await owner.post(`/api/teams/${team.id}/invitations`, { email: me.email })
    ).json();
    const token = new URL(invitation.link).pathname.split('/').pop();
    expect((await member.post(`/api/invitations/${token}/accept`)).status).toBe(200);

    const page = t.page;
    await openDomain(page, t.server.url, domainId);
    await page.waitForSelector('[data-testid="alert-settings-read-only"]');
    await page.waitForSelector('[data-testid="webhook"]');
    const panel = await page.$eval('[data-testid="alerts-panel"]', (el) => (el as HTMLElement).innerText);
    expect(panel).toContain("Only the domain's owner can change its alerts.");
    expect(panel).toContain('Script pending review for more than 14 days');
    expect(panel).toContain('E-mail the owner: off');
    // Where it goes, not the address (often the webhook's credential).
    expect(panel).not.toContain(receiverUrl);
    expect(panel).toContain(`${new URL(receiverUrl).origin}/…${receiverUrl.slice(-4)}`);
    expect(panel).toMatch(/2 times since/);
    // No control that would change anything: no input, no button but the alerts' own links.
    expect(await page.$$('[data-testid="alerts-panel"] input')).toHaveLength(0);
    expect(await page.$$('[data-testid="alerts-panel"] button')).toHaveLength(0);
    await shoot(page, 'alerts-team-member');
  }, 120_000);
});
