// Browser tests of what a new user meets first: creating an account without ever touching the verification
// widget (it solves on its own), the email change saying what the server refused instead of a generic
// failure, and a failed read announced by the spec's destructive toast.
import type { BrowserContext, HTTPRequest } from 'puppeteer-core';
import { afterEach, describe, expect, it } from 'vitest';
import { clickText, fill, intercepting, visibleText, waitForPath, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

let visitor: BrowserContext | undefined;
afterEach(async () => {
  await visitor?.close();
  visitor = undefined;
});

describe('first hour: signing up and the messages that matter', () => {
  it('creates an account from typed fields alone: no click on the widget, no CAPTCHA Required', async () => {
    visitor = await t.browser.createBrowserContext();
    const page = await visitor.newPage();
    await t.guardPage(page);
    await page.goto(`${t.server.url}/auth?mode=register`, { waitUntil: 'load' });
    await page.waitForSelector('form[aria-label="Create account"]');
    const username = `ada-${Date.now().toString(36)}`;
    await page.type('input[name="firstName"]', 'Ada');
    await page.type('input[name="lastName"]', 'Lovelace');
    await page.type('input[name="username"]', username);
    await page.type('input[name="email"]', `${username}@example.test`);
    await page.type('input[name="password"]', 'analytical-engine');
    // Nothing touches the widget: it solved on its own while the fields were typed.
    await page.waitForSelector('altcha-widget [data-state="verified"]', { timeout: 30_000 });
    await page.click('button[type="submit"]');
    const toast = await waitForToast(page, 'Registration successful');
    expect(toast.variant).not.toBe('destructive');
    await waitForPath(page, '/dashboard');
    expect(await visibleText(page)).not.toContain('CAPTCHA Required');
    const me = await page.evaluate(async () => (await fetch('/api/user')).json());
    expect(me).toMatchObject({ username, firstName: 'Ada' });
  });

  it("shows the server's reason for a refused email change at the password field, not a generic failure", async () => {
    await t.page.goto(`${t.server.url}/settings`, { waitUntil: 'load' });
    await t.page.waitForSelector('form[aria-label="Profile"]');
    t.guard.allowFailedRequest('/api/user/profile', 400);
    await fill(t.page, 'input[name="email"]', 'grace@example.test');
    await t.page.waitForSelector('input[name="currentPassword"]');
    await clickText(t.page, 'button', 'Update Profile');
    const toast = await waitForToast(t.page, 'Error');
    expect(toast.variant).toBe('destructive');
    expect(toast.text).toContain('Enter your current password to change your email');
    expect(toast.text).not.toContain('Failed to update profile');
    const fieldError = await t.page.$eval('#settings-email-password-error', (el) => el.textContent);
    expect(fieldError).toBe('Enter your current password to change your email');

    // A wrong password is named as such, at the same field.
    await t.page.type('input[name="currentPassword"]', 'not my password');
    await clickText(t.page, 'button', 'Update Profile');
    await t.page.waitForFunction(
      () =>
        document.querySelector('#settings-email-password-error')?.textContent ===
        'Current password is incorrect',
      { timeout: 15_000 },
    );
    expect((await (await t.client.get('/api/user')).json()).email).not.toBe('grace@example.test');
  });

  it("says 'Failed to fetch analyses' in a destructive toast when the analyses cannot be read", async () => {
    // The server fails the dashboard's read of the analyses (a real failed request, answered 500).
    const onRequest = (request: HTTPRequest) => {
      if (new URL(request.url()).pathname === '/api/csp-analyses') {
        void request.respond({ status: 500, contentType: 'application/json', body: '{"message":"down"}' });
      } else {
        void request.continue();
      }
    };
    t.guard.allowFailedRequest('/api/csp-analyses', 500);
    await intercepting(t.page, onRequest, async () => {
      await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
      const toast = await waitForToast(t.page, 'Failed to fetch analyses');
      expect(toast.variant).toBe('destructive');
    });
  });

  it('reads a 401 on the report reads as no reports, not as a failure', async () => {
    const domain = await (
      await t.client.post('/api/domains', { name: 'Reports', url: 'https://reports.example/' })
    ).json();
    // Only the report reads lose the session (as when it ends while the screen is open).
    const reportReads = new Set([
      `/api/domains/${domain.id}/uri-reports`,
      `/api/domains/${domain.id}/report-suggestions`,
    ]);
    const onRequest = (request: HTTPRequest) => {
      if (reportReads.has(new URL(request.url()).pathname)) {
        void request.respond({
          status: 401,
          contentType: 'application/json',
          body: '{"message":"Unauthorized"}',
        });
      } else {
        void request.continue();
      }
    };
    for (const path of reportReads) t.guard.allowFailedRequest(path, 401);
    await intercepting(t.page, onRequest, async () => {
      await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
      await t.page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="reports-panel"]')
            ?.textContent?.includes('No violation reports'),
        { timeout: 15_000 },
      );
      const text = await visibleText(t.page);
      expect(text).not.toContain('Failed to fetch URI reports');
    });
  });
});
