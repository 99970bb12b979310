// Browser tests of /settings: the Profile tab (username read-only, role, names, an email change that asks
// for the password), the Security tab's password change (the spec's messages) and two-factor authentication
// set up with a real code from an independent implementation, then disabled behind the confirmation.

import type { HttpClient } from '@csp/functions/src/testing/http-client';
import { totpCode } from '@csp/functions/src/testing/totp-codes';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clickText, dismissToasts, fill, type PageGuard, visibleText, waitForToast } from './harness';
import { closeSignedInBrowser, type SignedInBrowser, startSignedInBrowser } from './signed-in-browser';

let server: SignedInBrowser['server'];
let browser: Browser;
let page: Page;
let guard: PageGuard;
let user: SignedInBrowser['user'];
let client: HttpClient;
let password: string;

beforeAll(async () => {
  ({ server, browser, page, guard, user, client, password } = await startSignedInBrowser());
});
afterAll(() => closeSignedInBrowser({ browser, server }));
afterEach(() => guard.assertClean());

const me = async () => (await client.get('/api/user')).json();

describe('settings', () => {
  it('profile: username read-only, role badge, names and an email change that asks for the password', async () => {
    await page.goto(`${server.url}/settings`, { waitUntil: 'load' });
    await page.waitForSelector('form[aria-label="Profile"]');
    const text = await visibleText(page);
    for (const expected of [
      'Back to Dashboard',
      'Settings',
      'Profile',
      'Security',
      'Cannot be changed',
      user.username,
    ]) {
      expect(text).toContain(expected);
    }
    expect(await page.$eval('#settings-username', (el) => (el as HTMLInputElement).readOnly)).toBe(true);
    expect(await page.$eval('[data-testid="role-badge"]', (el) => el.textContent)).toBe('user');

    await fill(page, 'input[name="firstName"]', 'Katherine');
    await clickText(page, 'button', 'Update Profile');
    await waitForToast(page, 'Profile updated');
    expect((await me()).firstName).toBe('Katherine');

    await fill(page, 'input[name="email"]', 'kj@example.test');
    await page.waitForSelector('input[name="currentPassword"]');
    await page.type('input[name="currentPassword"]', password);
    await clickText(page, 'button', 'Update Profile');
    // Saved: the form starts again from the account, whose email is the new one.
    await page.waitForFunction(() => !document.querySelector('input[name="currentPassword"]'));
    expect((await me()).email).toBe('kj@example.test');
  });

  it("security: the password change's rules, then success; 2FA set up with a real code and disabled", async () => {
    await page.goto(`${server.url}/settings`, { waitUntil: 'load' });
    await clickText(page, 'button', 'Security');
    await page.waitForSelector('form[aria-label="Change password"]');
    await clickText(page, 'button', 'Change Password');
    expect(await visibleText(page)).toContain('Current password is required');
    await page.type('input[name="currentPassword"]', password);
    await page.type('input[name="newPassword"]', 'brand-new-secret');
    await page.type('input[name="confirmPassword"]', 'something else');
    await clickText(page, 'button', 'Change Password');
    expect(await visibleText(page)).toContain("Passwords don't match");
    await fill(page, 'input[name="confirmPassword"]', 'brand-new-secret');
    await clickText(page, 'button', 'Change Password');
    await waitForToast(page, 'Password changed');
    expect(await page.$eval('input[name="currentPassword"]', (el) => (el as HTMLInputElement).value)).toBe(
      '',
    );
    password = 'brand-new-secret';

    // The toast covers the button in the bottom corner: close it first, as a user would.
    await dismissToasts(page);
    await page.click('[data-testid="setup-2fa"]');
    await page.waitForSelector('[data-testid="qr-code"]');
    const secret = await page.$eval('[data-testid="manual-key"]', (el) => (el as HTMLInputElement).value);
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await page.type('[data-testid="two-factor-code"]', '12345');
    expect(await page.$eval('[data-testid="verify-2fa"]', (b) => (b as HTMLButtonElement).disabled)).toBe(
      true,
    );
    await fill(page, '[data-testid="two-factor-code"]', totpCode(secret));
    expect(await page.$eval('[data-testid="verify-2fa"]', (b) => (b as HTMLButtonElement).disabled)).toBe(
      false,
    );
    await page.click('[data-testid="verify-2fa"]');
    await waitForToast(page, '2FA enabled');
    await page.waitForSelector('[data-testid="two-factor-enabled"]');
    expect(await page.$('[data-testid="qr-code"]')).toBeNull();
    expect((await me()).twoFactorEnabled).toBe(true);

    await dismissToasts(page);
    await page.click('[data-testid="disable-2fa"]');
    await page.waitForSelector('dialog[open]');
    expect(await visibleText(page)).toContain(
      'Are you sure you want to disable 2FA? This will make your account less secure.',
    );
    await page.type('dialog[open] input', password);
    await page.click('[data-testid="confirm-disable-2fa"]');
    await waitForToast(page, '2FA disabled');
    await page.waitForSelector('[data-testid="setup-2fa"]');
    expect((await me()).twoFactorEnabled).toBe(false);
  });
});
