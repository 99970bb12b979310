// Browser tests of Settings › API tokens: a token made in the dialog (its value shown once, copied, then gone
// from the page), used from outside the browser within its scopes and refused beyond them, its last use in
// the list, revoked behind a confirmation that names it; a token without a scope is refused before anything
// is made; nothing scrolls sideways at 360 px; an expired token is marked; the server's refusal (too many
// tokens) is said in the dialog. With TOKENS_SHOTS=<dir> it also saves screenshots of the card
// and of the dialog at 1440 and 390 px.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { apiTokenHash, apiTokenHint, createApiTokenValue } from '@csp/functions/src/auth/api-token';
import { createApiToken } from '@csp/functions/src/store/api-tokens';
import { API_TOKEN_LIMITS } from '@csp/shared/schemas/api-token';
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { clickSelector, confirmDialog, dismissToasts, visibleText, waitForToast } from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ clipboard: true });

const shotsDir = process.env.TOKENS_SHOTS;

/** Saves the page at desktop and phone widths (TOKENS_SHOTS set), then goes back to the desktop width. */
async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  mkdirSync(shotsDir, { recursive: true });
  for (const [width, height, label] of [
    [1440, 900, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewport({ width, height });
    await new Promise((r) => setTimeout(r, 300));
    await page.screenshot({ path: join(shotsDir, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewport({ width: 1280, height: 800 });
}

const listTokens = async () => (await t.client.get('/api/user/api-tokens')).json();

/** A request from outside the browser, as a pipeline makes it: the token and nothing else. */
const withToken = (token: string, path: string, init: RequestInit = {}) =>
  fetch(`${t.server.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  });

async function openTokens() {
  await t.page.goto(`${t.server.url}/settings?tab=api-tokens`, { waitUntil: 'load' });
  await t.page.waitForSelector('[data-testid="api-tokens"]');
}

async function openCreateDialog() {
  await clickSelector(t.page, '[data-testid="create-api-token"]');
  await t.page.waitForSelector('dialog[open] form[aria-label="Create API token"]');
  // The opening animation settles before typing.
  await new Promise((r) => setTimeout(r, 250));
}

describe('settings › API tokens', () => {
  it('a token without a scope is refused with a message and nothing is created', async () => {
    await openTokens();
    await t.page.waitForFunction(() => document.body.innerText.includes('No API tokens yet'));
    expect(await visibleText(t.page)).toContain('Authorization: Bearer <token>');
    await shoot(t.page, 'empty');
    await openCreateDialog();
    await t.page.type('#api-token-name', 'No scope');
    await clickSelector(t.page, '[data-testid="submit-api-token"]');
    await t.page.waitForFunction(() =>
      document.querySelector('dialog[open]')?.textContent?.includes('Choose at least one scope'),
    );
    // The first scope box is focused (on the next frame after the message), marked invalid, the dialog
    // still open.
    await t.page.waitForFunction(
      () => (document.activeElement as HTMLInputElement | null)?.value === 'read',
      { timeout: 5_000 },
    );
    expect(await listTokens()).toEqual([]);
    await shoot(t.page, 'create-form-no-scope');
    await confirmDialog(t.page, 'Cancel');
    await t.page.waitForSelector('dialog[open]', { hidden: true });
  });

  it('creates a token with two scopes: shown once, copied, gone from the page when the dialog closes', async () => {
    await openTokens();
    await openCreateDialog();
    await t.page.type('#api-token-name', 'Deploy pipeline');
    await clickSelector(t.page, 'dialog[open] input[name="scopes"][value="read"]');
    await clickSelector(t.page, 'dialog[open] input[name="scopes"][value="analyses:write"]');
    expect(await t.page.$eval('#api-token-expiry', (el) => (el as HTMLSelectElement).value)).toBe('90');
    await clickSelector(t.page, '[data-testid="submit-api-token"]');

    await t.page.waitForSelector('[data-testid="api-token-value"]');
    const token = await t.page.$eval(
      '[data-testid="api-token-value"]',
      (el) => (el as HTMLInputElement).value,
    );
    expect(token).toMatch(/^cspg_\S{20,}$/);
    expect(await visibleText(t.page)).toContain('This is the only time the token is shown');
    // The value has the focus, read-only.
    expect(
      await t.page.evaluate(() => {
        const el = document.activeElement as HTMLTextAreaElement | null;
        return el?.dataset.testid === 'api-token-value' && el.readOnly && el.selectionEnd === el.value.length;
      }),
    ).toBe(true);

    await clickSelector(t.page, '[data-testid="copy-api-token"]');
    await waitForToast(t.page, 'Copied to clipboard');
    expect(await t.page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    // The toast is under the modal's backdrop: the button itself says so too.
    expect(await t.page.$eval('[data-testid="copy-api-token"]', (el) => el.textContent)).toBe('Copied');
    await shoot(t.page, 'created-token-dialog');

    await clickSelector(t.page, '[data-testid="api-token-done"]');
    await t.page.waitForSelector('dialog[open]', { hidden: true });
    // The list replaced the empty state's button: focus is on 'Create token' again, not lost.
    await t.page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid === 'create-api-token',
    );
    await dismissToasts(t.page);
    expect(await t.page.content()).not.toContain(token);
    // Opening the dialog again starts a new token: the old value is not kept anywhere it could show.
    await openCreateDialog();
    expect(await t.page.$eval('#api-token-name', (el) => (el as HTMLInputElement).value)).toBe('');
    expect(await t.page.content()).not.toContain(token);
    await confirmDialog(t.page, 'Cancel');
    await t.page.waitForSelector('dialog[open]', { hidden: true });

    // Listed: name, scopes, the hint (never the value), never used, expiring in 90 days.
    const [listed] = await listTokens();
    expect(listed).toMatchObject({ name: 'Deploy pipeline', scopes: ['read', 'analyses:write'] });
    const row = await t.page.$eval('[data-testid="api-token"]', (el) => (el as HTMLElement).innerText);
    expect(row).toContain('Deploy pipeline');
    expect(row).toContain('read');
    expect(row).toContain('analyses:write');
    expect(row).not.toContain('configurations:write');
    expect(row).toContain(`${token.slice(0, 9)}…`);
    expect(row).toContain('Never used');
    await shoot(t.page, 'token-listed');

    // Used from outside the browser: allowed within its scopes, refused beyond them.
    const domains = await withToken(token, '/api/domains');
    expect(domains.status).toBe(200);
    expect(Array.isArray(await domains.json())).toBe(true);
    const configure = await withToken(token, '/api/csp-configurations', { method: 'POST', body: '{}' });
    expect(configure.status).toBe(403);
    expect((await configure.json()).message).toBe("This API token lacks the 'configurations:write' scope");

    // The list shows the use after a reload.
    await t.page.reload({ waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="api-token-last-used"]');
    const lastUsed = await t.page.$eval('[data-testid="api-token-last-used"]', (el) => el.textContent);
    expect(lastUsed).not.toBe('Never used');
    expect(lastUsed).toMatch(/\d/);

    // Revoked behind a confirmation that names it: the token stops working at once.
    await clickSelector(t.page, '[data-testid="revoke-api-token"]');
    await t.page.waitForSelector('dialog[open]');
    expect(await t.page.$eval('dialog[open]', (el) => (el as HTMLElement).innerText)).toContain(
      '“Deploy pipeline”',
    );
    await confirmDialog(t.page, 'Revoke');
    await waitForToast(t.page, 'Token revoked');
    await t.page.waitForFunction(() => document.body.innerText.includes('No API tokens yet'));
    await t.page.waitForFunction(
      () => (document.activeElement as HTMLElement | null)?.dataset.testid === 'create-api-token',
    );
    const revoked = await withToken(token, '/api/domains');
    expect(revoked.status).toBe(401);
    expect((await revoked.json()).message).toBe('Invalid or revoked API token');
    expect(await listTokens()).toEqual([]);
    await dismissToasts(t.page);
  });

  it('nothing scrolls sideways at 360 px: the list and the dialog with a new token', async () => {
    await t.client.post('/api/user/api-tokens', {
      name: 'A rather long token name for the nightly release pipeline of the marketing site',
      scopes: ['read', 'analyses:write', 'configurations:write'],
      expiresInDays: null,
    });
    await t.page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
    const overflow = () => t.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    try {
      await openTokens();
      await t.page.waitForSelector('[data-testid="api-token"]');
      expect(await t.page.$eval('[data-testid="api-token-expires"]', (el) => el.textContent)).toBe('Never');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await openCreateDialog();
      await t.page.type('#api-token-name', 'Phone');
      await clickSelector(t.page, 'dialog[open] input[name="scopes"][value="read"]');
      await clickSelector(t.page, '[data-testid="submit-api-token"]');
      await t.page.waitForSelector('[data-testid="api-token-value"]');
      expect(await overflow()).toBeLessThanOrEqual(0);
      const dialogFits = await t.page.$eval('dialog[open]', (el) => el.scrollWidth <= el.clientWidth);
      expect(dialogFits).toBe(true);
      await clickSelector(t.page, '[data-testid="api-token-done"]');
      await t.page.waitForSelector('dialog[open]', { hidden: true });
    } finally {
      await t.page.setViewport({ width: 1280, height: 800 });
    }
  });

  it('an expired token says so in red; the server refusing a new token is said in the dialog', async () => {
    for (const token of await listTokens()) await t.client.delete(`/api/user/api-tokens/${token.id}`);
    const value = createApiTokenValue();
    const twoDaysAgo = Date.now() - 2 * 86_400_000;
    await createApiToken(
      t.server.deps.db,
      {
        userId: t.user.id,
        hash: apiTokenHash(value),
        hint: apiTokenHint(value),
        name: 'Old pipeline',
        scopes: ['read'],
        expiresInDays: 1,
      },
      twoDaysAgo,
    );
    await openTokens();
    await t.page.waitForSelector('[data-testid="api-token-expires"]');
    const expires = await t.page.$eval('[data-testid="api-token-expires"]', (el) => ({
      text: el.textContent,
      color: getComputedStyle(el).color,
    }));
    expect(expires.text).toMatch(/^Expired on /);
    expect(expires.color).toBe(
      await t.page.evaluate(() => {
        const probe = document.createElement('span');
        probe.className = 'text-destructive';
        document.body.append(probe);
        const color = getComputedStyle(probe).color;
        probe.remove();
        return color;
      }),
    );

    // Up to the limit through the API, then one more in the dialog: the server's message, nothing made.
    for (let i = (await listTokens()).length; i < API_TOKEN_LIMITS.perUser; i++) {
      await t.client.post('/api/user/api-tokens', { name: `Token ${i}`, scopes: ['read'] });
    }
    await t.page.reload({ waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="api-token"]');
    t.guard.allowFailedRequest('/api/user/api-tokens', 409);
    await openCreateDialog();
    await t.page.type('#api-token-name', 'One too many');
    await clickSelector(t.page, 'dialog[open] input[name="scopes"][value="read"]');
    await clickSelector(t.page, '[data-testid="submit-api-token"]');
    await t.page.waitForFunction(
      (message: string) => document.querySelector('dialog[open]')?.textContent?.includes(message),
      {},
      `You have ${API_TOKEN_LIMITS.perUser} API tokens; revoke one before creating another`,
    );
    expect(await t.page.$('[data-testid="api-token-value"]')).toBeNull();
    expect(await listTokens()).toHaveLength(API_TOKEN_LIMITS.perUser);
    await confirmDialog(t.page, 'Cancel');
    await t.page.waitForSelector('dialog[open]', { hidden: true });
  });
});
