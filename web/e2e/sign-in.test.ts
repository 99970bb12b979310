// Browser tests of signing in with the real proof-of-work widget, the dashboard, adding a domain, signing
// out, creating an account from /auth, and the two-factor second step.
import { registeredClient } from '@csp/functions/src/testing/api-server';
import { generate } from 'otplib';
import { describe, expect, it } from 'vitest';
import {
  dismissAchievementOverlay,
  fill,
  signOutInBrowser,
  solveWidget,
  visibleText,
  waitForPath,
  waitForToast,
} from './harness';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ signedIn: false });

async function openSignIn() {
  await t.page.goto(`${t.server.url}/auth`, { waitUntil: 'load' });
  await t.page.waitForSelector('form[aria-label="Sign in"]');
}

describe('sign-in and the dashboard', () => {
  it('validates the fields, then signs in without anyone touching the verification widget', async () => {
    const account = await registeredClient(t.server.url);
    await openSignIn();
    await t.page.click('button[type="submit"]');
    const text = await visibleText(t.page);
    expect(text).toContain('Username is required');
    expect(text).toContain('Password is required');

    // The widget solves on its own: a submit that comes before it is done waits for it.
    await t.page.type('input[name="username"]', account.username);
    await t.page.type('input[name="password"]', account.password);
    await t.page.click('button[type="submit"]');
    await waitForToast(t.page, 'Login successful');
    await waitForPath(t.page, '/dashboard');
    await dismissAchievementOverlay(t.page);
    await signOutInBrowser(t.page);
  });

  it("says 'Login failed' for a wrong password and solves the widget again for the next try", async () => {
    const account = await registeredClient(t.server.url);
    t.guard.allowFailedRequest('/api/login', 401);
    await openSignIn();
    await t.page.type('input[name="username"]', account.username);
    await t.page.type('input[name="password"]', 'not the password');
    await solveWidget(t.page);
    const spent = await t.page.$eval(
      'altcha-widget input[name="altcha"]',
      (i) => (i as HTMLInputElement).value,
    );
    await t.page.click('button[type="submit"]');
    const toast = await waitForToast(t.page, 'Login failed');
    expect(toast.variant).toBe('destructive');
    expect(toast.text).toContain('Invalid username or password');
    // The spent solution is dropped and a new one is solved without a click.
    await t.page.waitForFunction(
      (old: string) =>
        document.querySelector('altcha-widget [data-state="verified"]') !== null &&
        (document.querySelector('altcha-widget input[name="altcha"]') as HTMLInputElement | null)?.value !==
          old,
      { timeout: 30_000 },
      spent,
    );
  });

  it('signs in with the real widget, lands on /dashboard and shows the welcome and the empty states', async () => {
    const account = await registeredClient(t.server.url, { firstName: 'Grace' });
    await openSignIn();
    await t.page.type('input[name="username"]', account.username);
    await t.page.type('input[name="password"]', account.password);
    await solveWidget(t.page);
    await t.page.click('button[type="submit"]');
    const toast = await waitForToast(t.page, 'Login successful');
    expect(toast.text).toContain('Welcome back!');
    await waitForPath(t.page, '/dashboard');
    await t.page.waitForSelector('[data-testid="stat-card"]');

    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('Welcome back, Grace!');
    const text = await visibleText(t.page);
    for (const expected of [
      'Manage your domains and monitor CSP analysis results',
      'Settings',
      'Logout',
      'Total Domains',
      'Total Analyses',
      'Active Scans',
      'Achievements',
      'Security Score',
      // No completed analysis yet: no score to show (it is the mean of the domains' latest policies).
      'No completed analysis yet',
      'Your Domains',
      'Add Domain',
      'No domains yet',
      'Add Your First Domain',
      'Recent Activity',
      'No recent activity',
      'Security Achievements',
      'No achievements unlocked yet',
      'Complete your first CSP scan to get started!',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Admin Panel');

    // A signed-in user who opens /auth goes to the dashboard.
    await t.page.goto(`${t.server.url}/auth`, { waitUntil: 'load' });
    await waitForPath(t.page, '/dashboard');
  });

  it('adds a domain: validation messages, the success toast, and the new row on the dashboard', async () => {
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    const addFirst = await t.page.waitForSelector('xpath/.//a[normalize-space()="Add Your First Domain"]');
    await addFirst!.click();
    await waitForPath(t.page, '/domains/new');
    await t.page.waitForSelector('form[aria-label="Add domain"]');
    expect(await t.page.$eval('[role="switch"]', (s) => s.getAttribute('aria-checked'))).toBe('true');

    await t.page.type('input[name="url"]', 'not a url');
    await t.page.click('button[type="submit"]');
    let text = await visibleText(t.page);
    expect(text).toContain('Domain name is required');
    expect(text).toContain('Please enter a valid URL');

    await t.page.type('input[name="name"]', 'Marketing site');
    await fill(t.page, 'input[name="url"]', 'https://www.example.com');
    await t.page.click('button[type="submit"]');
    const toast = await waitForToast(t.page, 'Domain Created');
    expect(toast.text).toContain('Your domain has been added successfully.');
    await waitForPath(t.page, '/dashboard');
    await t.page.waitForSelector('[data-testid="domain-row"]');
    text = await t.page.$eval('[data-testid="domain-row"]', (row) => (row as HTMLElement).innerText);
    expect(text).toContain('Marketing site');
    expect(text).toContain('https://www.example.com');
    expect(text).toContain('Active');
    expect(text).toContain('0 scans');
    const href = await t.page.$eval(
      '[data-testid="domain-row"] a',
      (a) => new URL((a as HTMLAnchorElement).href).pathname,
    );
    expect(href).toMatch(/^\/domains\/[\w-]+$/);
  });

  it('logs out to /auth; the dashboard is then protected again', async () => {
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="stat-card"]');
    // The domain added before unlocked 'First Domain': its overlay comes first.
    await dismissAchievementOverlay(t.page);
    const logout = await t.page.waitForSelector('xpath/.//button[normalize-space()="Logout"]');
    await logout!.click();
    await waitForPath(t.page, '/auth');
    await t.page.waitForSelector('form[aria-label="Sign in"]');
    // Signing out on purpose is not being refused: no 'Unauthorized' toast on the way.
    await new Promise((r) => setTimeout(r, 800));
    expect(
      await t.page.$$eval('[data-testid="toast"]', (els) => els.map((e) => e.textContent)),
    ).not.toContainEqual(expect.stringContaining('Unauthorized'));
    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await waitForToast(t.page, 'Unauthorized');
    await waitForPath(t.page, '/auth');
  });

  it('creates an account from /auth and signs it in', async () => {
    await signOutInBrowser(t.page);
    const id = Date.now().toString(36);
    await t.page.goto(`${t.server.url}/auth`, { waitUntil: 'load' });
    const create = await t.page.waitForSelector('xpath/.//a[normalize-space()="Create an account"]');
    await create!.click();
    await t.page.waitForSelector('form[aria-label="Create account"]');
    await t.page.type('input[name="firstName"]', 'Linus');
    await t.page.type('input[name="lastName"]', 'Torvalds');
    await t.page.type('input[name="username"]', `ui_${id}`);
    await t.page.type('input[name="email"]', `ui_${id}@example.test`);
    await t.page.type('input[name="password"]', 'abc');
    await t.page.click('button[type="submit"]');
    expect(await visibleText(t.page)).toContain('Password must be at least 6 characters');

    await fill(t.page, 'input[name="password"]', 'a long enough password');
    await solveWidget(t.page);
    await t.page.click('button[type="submit"]');
    const toast = await waitForToast(t.page, 'Registration successful');
    expect(toast.text).toContain('Welcome to CSP Generator!');
    await waitForPath(t.page, '/dashboard');
    await t.page.waitForSelector('[data-testid="stat-card"]');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('Welcome back, Linus!');
  });

  it('asks for the 6-digit code when the account has two-factor authentication', async () => {
    await signOutInBrowser(t.page);
    const account = await registeredClient(t.server.url, { firstName: 'Ada' });
    const setup = await account.client.post('/api/user/2fa/setup');
    expect(setup.status).toBe(200);
    const { secret } = (await setup.json()) as { secret: string };
    const enable = await account.client.post('/api/user/2fa/verify', { token: await generate({ secret }) });
    expect(enable.status).toBe(200);

    t.guard.allowFailedRequest('/api/login', 401);
    await openSignIn();
    await t.page.type('input[name="username"]', account.username);
    await t.page.type('input[name="password"]', account.password);
    await solveWidget(t.page);
    await t.page.click('button[type="submit"]');
    await t.page.waitForSelector('input[name="totp"]');
    expect(await visibleText(t.page)).toContain('Enter the 6-digit code from your authenticator app.');

    // The next time step: the current one was spent enabling 2FA (a code is accepted once).
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await t.page.type('input[name="totp"]', code);
    await t.page.click('button[type="submit"]');
    await waitForToast(t.page, 'Login successful');
    await waitForPath(t.page, '/dashboard');
    await t.page.waitForSelector('[data-testid="stat-card"]');
    expect(await t.page.$eval('h1', (h) => h.textContent)).toBe('Welcome back, Ada!');
  });
});
