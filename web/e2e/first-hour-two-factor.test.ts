// Browser test of two-factor recovery: 2FA enabled in Settings with a real code (from an implementation other
// than the product's), the 10 recovery codes shown once with a download, then signed out and in again with a
// recovery code at the code step; the same code is refused the next time and the count left drops. Cancel
// during setup leaves 2FA off. With SHOTS_DIR set, the card's states are saved at 1440 and 390 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { getUserByUsername } from '@csp/functions/src/store/users';
import { totpCode } from '@csp/functions/src/testing/totp-codes';
import { describe, expect, it } from 'vitest';
import {
  clickSelector,
  clickText,
  dismissToasts,
  fill,
  signOutInBrowser,
  solveWidget,
  visibleText,
  waitForDownload,
  waitForPath,
  waitForToast,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ downloads: true });

const me = async () => (await t.client.get('/api/user')).json();

/** The Two-Factor card (or the page's `selector`) at desktop and phone widths, when SHOTS_DIR asks for them. */
async function shot(name: string, selector = '[data-testid="two-factor"]') {
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await t.page.setViewport({ width, height });
    const target = await t.page.waitForSelector(selector);
    await target!.scrollIntoView();
    await t.page.screenshot({ path: join(dir, `${name}-${width}.png`) });
  }
  await t.page.setViewport({ width: 1280, height: 800 });
}

async function openSecurity() {
  await t.page.goto(`${t.server.url}/settings?tab=security`, { waitUntil: 'load' });
  await t.page.waitForSelector('[data-testid="two-factor"]');
}

/** Password and widget, then the code step with a recovery code. */
async function signInWithRecoveryCode(code: string) {
  await t.page.goto(`${t.server.url}/auth`, { waitUntil: 'load' });
  await t.page.waitForSelector('form[aria-label="Sign in"]');
  await t.page.type('input[name="username"]', t.user.username);
  await t.page.type('input[name="password"]', t.password);
  await solveWidget(t.page);
  await t.page.click('button[type="submit"]');
  await t.page.waitForSelector('input[name="totp"]');
  await t.page.click('[data-testid="switch-code-kind"]');
  await t.page.waitForSelector('input[name="recoveryCode"]');
  expect(await visibleText(t.page)).toContain('Enter one of your recovery codes. Each works once.');
  await t.page.type('input[name="recoveryCode"]', code);
  await shot('sign-in-recovery-code', 'form[aria-label="Sign in"]');
  await t.page.click('button[type="submit"]');
}

describe('two-factor recovery codes', () => {
  it('Cancel during setup abandons it: 2FA stays off and nothing of the setup is kept', async () => {
    await openSecurity();
    await shot('2fa-off');
    await t.page.click('[data-testid="setup-2fa"]');
    await t.page.waitForSelector('[data-testid="qr-code"]');
    await shot('2fa-setup');
    await t.page.click('[data-testid="cancel-2fa-setup"]');
    await waitForToast(t.page, '2FA setup cancelled');
    await t.page.waitForSelector('[data-testid="setup-2fa"]');
    expect(await t.page.$('[data-testid="qr-code"]')).toBeNull();
    expect((await me()).twoFactorEnabled).toBe(false);
    expect((await getUserByUsername(t.server.deps.db, t.user.username))?.twoFactorSecret).toBeNull();
    // Still off after a reload: nothing was half-enabled.
    await openSecurity();
    expect(await visibleText(t.page)).toContain('Two-factor authentication is off.');
    await dismissToasts(t.page);
  });

  it('shows 10 codes once after enabling; one signs in once, its reuse is refused, the count drops', async () => {
    await openSecurity();
    await t.page.click('[data-testid="setup-2fa"]');
    await t.page.waitForSelector('[data-testid="qr-code"]');
    const secret = await t.page.$eval('[data-testid="manual-key"]', (el) => (el as HTMLInputElement).value);
    await t.page.type('[data-testid="two-factor-code"]', totpCode(secret));
    await t.page.click('[data-testid="verify-2fa"]');
    await waitForToast(t.page, '2FA enabled');
    await t.page.waitForSelector('[data-testid="recovery-codes"]');
    const codes = await t.page.$$eval('[data-testid="recovery-code"]', (els) =>
      els.map((e) => e.textContent),
    );
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
    expect(await visibleText(t.page)).toContain('They are shown only this once.');
    await dismissToasts(t.page);
    await shot('2fa-codes');
    await clickSelector(t.page, '[data-testid="download-recovery-codes"]');
    const file = await waitForDownload(t.downloads, 'csp-generator-recovery-codes.txt');
    expect(file.trim().split('\n')).toEqual(codes);

    await t.page.click('[data-testid="recovery-codes-saved"]');
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="recovery-codes-left"]')?.textContent === '10 of 10 left',
    );
    expect(await t.page.$('[data-testid="recovery-codes"]')).toBeNull();
    await shot('2fa-on');
    // Not shown again after a reload: only the count.
    await openSecurity();
    expect(await t.page.$('[data-testid="recovery-code"]')).toBeNull();

    // The first step answers 401 {twoFactorRequired}, as does the refused code below.
    t.guard.allowFailedRequest('/api/login', 401);
    await signOutInBrowser(t.page);
    await signInWithRecoveryCode(codes[2]!.toLowerCase());
    await waitForToast(t.page, 'Login successful');
    await waitForPath(t.page, '/dashboard');
    await openSecurity();
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="recovery-codes-left"]')?.textContent === '9 of 10 left',
    );

    await signOutInBrowser(t.page);
    await signInWithRecoveryCode(codes[2]!);
    const refused = await waitForToast(t.page, 'Login failed');
    expect(refused.variant).toBe('destructive');
    expect(refused.text).toContain('This recovery code is not valid or was already used.');
    expect(await t.page.evaluate(() => location.pathname)).toBe('/auth');
    // Still at the code step: another code gets in.
    await dismissToasts(t.page);
    await fill(t.page, 'input[name="recoveryCode"]', codes[5]!);
    await t.page.click('button[type="submit"]');
    await waitForToast(t.page, 'Login successful');
    await waitForPath(t.page, '/dashboard');
  });

  it('regenerating asks for the password and shows a new set, once', async () => {
    await openSecurity();
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="recovery-codes-left"]')?.textContent === '8 of 10 left',
    );
    await t.page.click('[data-testid="regenerate-recovery-codes"]');
    await t.page.waitForSelector('dialog[open]');
    await shot('2fa-regenerate');
    t.guard.allowFailedRequest('/api/user/2fa/recovery-codes', 400);
    await t.page.type('dialog[open] input', 'not the password');
    await t.page.click('[data-testid="confirm-regenerate-recovery-codes"]');
    await t.page.waitForFunction(() =>
      document.querySelector('dialog[open]')?.textContent?.includes('Current password is incorrect'),
    );
    await fill(t.page, 'dialog[open] input', t.password);
    await t.page.click('[data-testid="confirm-regenerate-recovery-codes"]');
    await t.page.waitForSelector('[data-testid="recovery-codes"]');
    const fresh = await t.page.$$eval('[data-testid="recovery-code"]', (els) =>
      els.map((e) => e.textContent),
    );
    expect(fresh).toHaveLength(10);
    await clickText(t.page, 'button', 'I have saved them');
    await t.page.waitForFunction(
      () => document.querySelector('[data-testid="recovery-codes-left"]')?.textContent === '10 of 10 left',
    );
  });
});
