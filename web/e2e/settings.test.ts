// Browser tests of /settings: the Profile tab (username read-only, role, names, an email change that asks
// for the password), the Security tab's password change (the spec's messages) and two-factor authentication
// set up with a real code from an independent implementation, then disabled behind the confirmation.

import { totpCode } from '@csp/functions/src/testing/totp-codes';
import { describe, expect, it } from 'vitest';
import { clickText, dismissToasts, fill, visibleText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
// A test changes the password: the tests after it confirm with the new one.
let changedPassword: string | undefined;
const password = () => changedPassword ?? t.password;

const me = async () => (await t.client.get('/api/user')).json();

describe('settings', () => {
  it('profile: username read-only, role badge, names and an email change that asks for the password', async () => {
    await t.page.goto(`${t.server.url}/settings`, { waitUntil: 'load' });
    await t.page.waitForSelector('form[aria-label="Profile"]');
    const text = await visibleText(t.page);
    for (const expected of [
      'Back to Dashboard',
      'Settings',
      'Profile',
      'Security',
      'Cannot be changed',
      t.user.username,
    ]) {
      expect(text).toContain(expected);
    }
    expect(await t.page.$eval('#settings-username', (el) => (el as HTMLInputElement).readOnly)).toBe(true);
    expect(await t.page.$eval('[data-testid="role-badge"]', (el) => el.textContent)).toBe('user');

    await fill(t.page, 'input[name="firstName"]', 'Katherine');
    await clickText(t.page, 'button', 'Update Profile');
    await waitForToast(t.page, 'Profile updated');
    expect((await me()).firstName).toBe('Katherine');

    await fill(t.page, 'input[name="email"]', 'kj@example.test');
    await t.page.waitForSelector('input[name="currentPassword"]');
    await t.page.type('input[name="currentPassword"]', password());
    await clickText(t.page, 'button', 'Update Profile');
    // Saved: the form starts again from the account, whose email is the new one.
    await t.page.waitForFunction(() => !document.querySelector('input[name="currentPassword"]'));
    expect((await me()).email).toBe('kj@example.test');
  });

  it("security: the password change's rules, then success; 2FA set up with a real code and disabled", async () => {
    await t.page.goto(`${t.server.url}/settings`, { waitUntil: 'load' });
    await clickText(t.page, 'button', 'Security');
    await t.page.waitForSelector('form[aria-label="Change password"]');
    await clickText(t.page, 'button', 'Change Password');
    expect(await visibleText(t.page)).toContain('Current password is required');
    await t.page.type('input[name="currentPassword"]', password());
    await t.page.type('input[name="newPassword"]', 'brand-new-secret');
    await t.page.type('input[name="confirmPassword"]', 'something else');
    await clickText(t.page, 'button', 'Change Password');
    expect(await visibleText(t.page)).toContain("Passwords don't match");
    await fill(t.page, 'input[name="confirmPassword"]', 'brand-new-secret');
    await clickText(t.page, 'button', 'Change Password');
    await waitForToast(t.page, 'Password changed');
    expect(await t.page.$eval('input[name="currentPassword"]', (el) => (el as HTMLInputElement).value)).toBe(
      '',
    );
    changedPassword = 'brand-new-secret';

    // The toast covers the button in the bottom corner: close it first, as a user would.
    await dismissToasts(t.page);
    await t.page.click('[data-testid="setup-2fa"]');
    await t.page.waitForSelector('[data-testid="qr-code"]');
    const secret = await t.page.$eval('[data-testid="manual-key"]', (el) => (el as HTMLInputElement).value);
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await t.page.type('[data-testid="two-factor-code"]', '12345');
    expect(await t.page.$eval('[data-testid="verify-2fa"]', (b) => (b as HTMLButtonElement).disabled)).toBe(
      true,
    );
    await fill(t.page, '[data-testid="two-factor-code"]', totpCode(secret));
    expect(await t.page.$eval('[data-testid="verify-2fa"]', (b) => (b as HTMLButtonElement).disabled)).toBe(
      false,
    );
    await t.page.click('[data-testid="verify-2fa"]');
    await waitForToast(t.page, '2FA enabled');
    await t.page.waitForSelector('[data-testid="two-factor-enabled"]');
    expect(await t.page.$('[data-testid="qr-code"]')).toBeNull();
    expect((await me()).twoFactorEnabled).toBe(true);

    await dismissToasts(t.page);
    await t.page.click('[data-testid="disable-2fa"]');
    await t.page.waitForSelector('dialog[open]');
    expect(await visibleText(t.page)).toContain(
      'Are you sure you want to disable 2FA? This will make your account less secure.',
    );
    await t.page.type('dialog[open] input', password());
    await t.page.click('[data-testid="confirm-disable-2fa"]');
    await waitForToast(t.page, '2FA disabled');
    await t.page.waitForSelector('[data-testid="setup-2fa"]');
    expect((await me()).twoFactorEnabled).toBe(false);
  });
});
