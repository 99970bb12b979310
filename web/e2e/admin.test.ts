// Browser tests of /admin: refused to a user with a clear message; for an admin, the 'Admin Access' badge,
// the tabs with totals, a role change, and deleting a domain, an analysis and a user, with the spec's toasts.

import { updateUserFields } from '@csp/functions/src/store/users';
import { registeredClient } from '@csp/functions/src/testing/api-server';
import type { HttpClient } from '@csp/functions/src/testing/http-client';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmDialog, type PageGuard, visibleText, waitForToast } from './harness';
import { seedCompleted } from './seed';
import { closeSignedInBrowser, type SignedInBrowser, startSignedInBrowser } from './signed-in-browser';

let server: SignedInBrowser['server'];
let browser: Browser;
let page: Page;
let guard: PageGuard;
let user: SignedInBrowser['user'];
let client: HttpClient;

beforeAll(async () => {
  ({ server, browser, page, guard, user, client } = await startSignedInBrowser());
});
afterAll(() => closeSignedInBrowser({ browser, server }));
afterEach(() => guard.assertClean());

const row = (id: string) => `[data-testid="admin-row"][data-id="${id}"]`;

describe('admin panel', () => {
  it('tells a user plainly that it is for administrators', async () => {
    await page.goto(`${server.url}/admin`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="admin-refused"]');
    expect(await visibleText(page)).toContain('Admin access required');
  });

  it('lets an admin change a role and delete a domain, an analysis and a user', async () => {
    await updateUserFields(server.deps.db, user.id, { role: 'admin' });
    const other = await registeredClient(server.url, { firstName: 'Alan' });
    const domain = await (
      await other.client.post('/api/domains', { name: 'Other', url: 'https://other.example/' })
    ).json();
    const analysisId = await seedCompleted(server.deps.db, {
      userId: other.user.id,
      domainId: domain.id,
      url: domain.url,
    });

    await page.goto(`${server.url}/admin`, { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="admin-users"]');
    const text = await visibleText(page);
    for (const expected of [
      'Admin Panel',
      'Admin Access',
      'Users',
      'Domains',
      'Analyses',
      other.user.username,
    ]) {
      expect(text).toContain(expected);
    }
    // Its own row: no delete, and the role cannot be changed.
    expect(await page.$(`${row(user.id)} [data-testid="admin-delete"]`)).toBeNull();
    expect(await page.$eval(`${row(user.id)} select`, (s) => (s as HTMLSelectElement).disabled)).toBe(true);

    await page.select(`${row(other.user.id)} select`, 'admin');
    await waitForToast(page, 'User role updated successfully');
    expect(
      (await (await client.get('/api/admin/users')).json()).items.find(
        (u: { id: string }) => u.id === other.user.id,
      ).role,
    ).toBe('admin');

    await page.click('[role="tab"][id$="-tab-analyses"]');
    await page.waitForSelector(row(analysisId));
    await page.click(`${row(analysisId)} [data-testid="admin-delete"]`);
    await confirmDialog(page, 'Delete');
    await waitForToast(page, 'Analysis deleted successfully');
    await page.waitForFunction((sel: string) => !document.querySelector(sel), {}, row(analysisId));

    await page.click('[role="tab"][id$="-tab-domains"]');
    await page.waitForSelector(row(domain.id));
    await page.click(`${row(domain.id)} [data-testid="admin-delete"]`);
    await confirmDialog(page, 'Delete');
    await waitForToast(page, 'Domain deleted successfully');
    await page.waitForFunction((sel: string) => !document.querySelector(sel), {}, row(domain.id));

    await page.click('[role="tab"][id$="-tab-users"]');
    await page.waitForSelector(row(other.user.id));
    await page.click(`${row(other.user.id)} [data-testid="admin-delete"]`);
    await confirmDialog(page, 'Delete');
    await waitForToast(page, 'User deleted successfully');
    await page.waitForFunction((sel: string) => !document.querySelector(sel), {}, row(other.user.id));
  });
});
