// Browser tests of /admin: refused to a user with a clear message; for an admin, the 'Admin Access' badge,
// the tabs with totals, a role change, and deleting a domain, an analysis and a user, with the spec's toasts.

import { updateUserFields } from '@csp/functions/src/store/users';
import { registeredClient } from '@csp/functions/src/testing/api-server';
import { describe, expect, it } from 'vitest';
import { confirmDialog, visibleText, waitForToast } from './harness';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

const row = (id: string) => `[data-testid="admin-row"][data-id="${id}"]`;

describe('admin panel', () => {
  it('tells a user plainly that it is for administrators', async () => {
    await t.page.goto(`${t.server.url}/admin`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="admin-refused"]');
    expect(await visibleText(t.page)).toContain('Admin access required');
  });

  it('lets an admin change a role and delete a domain, an analysis and a user', async () => {
    await updateUserFields(t.server.deps.db, t.user.id, { role: 'admin' });
    const other = await registeredClient(t.server.url, { firstName: 'Alan' });
    const domain = await (
      await other.client.post('/api/domains', { name: 'Other', url: 'https://other.example/' })
    ).json();
    const analysisId = await seedCompleted(t.server.deps.db, {
      userId: other.user.id,
      domainId: domain.id,
      url: domain.url,
    });

    await t.page.goto(`${t.server.url}/admin`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="admin-users"]');
    const text = await visibleText(t.page);
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
    expect(await t.page.$(`${row(t.user.id)} [data-testid="admin-delete"]`)).toBeNull();
    expect(await t.page.$eval(`${row(t.user.id)} select`, (s) => (s as HTMLSelectElement).disabled)).toBe(
      true,
    );

    await t.page.select(`${row(other.user.id)} select`, 'admin');
    await waitForToast(t.page, 'User role updated successfully');
    expect(
      (await (await t.client.get('/api/admin/users')).json()).items.find(
        (u: { id: string }) => u.id === other.user.id,
      ).role,
    ).toBe('admin');

    await t.page.click('[role="tab"][id$="-tab-analyses"]');
    await t.page.waitForSelector(row(analysisId));
    await t.page.click(`${row(analysisId)} [data-testid="admin-delete"]`);
    await confirmDialog(t.page, 'Delete');
    await waitForToast(t.page, 'Analysis deleted successfully');
    await t.page.waitForFunction((sel: string) => !document.querySelector(sel), {}, row(analysisId));

    await t.page.click('[role="tab"][id$="-tab-domains"]');
    await t.page.waitForSelector(row(domain.id));
    await t.page.click(`${row(domain.id)} [data-testid="admin-delete"]`);
    await confirmDialog(t.page, 'Delete');
    await waitForToast(t.page, 'Domain deleted successfully');
    await t.page.waitForFunction((sel: string) => !document.querySelector(sel), {}, row(domain.id));

    await t.page.click('[role="tab"][id$="-tab-users"]');
    await t.page.waitForSelector(row(other.user.id));
    await t.page.click(`${row(other.user.id)} [data-testid="admin-delete"]`);
    await confirmDialog(t.page, 'Delete');
    await waitForToast(t.page, 'User deleted successfully');
    await t.page.waitForFunction((sel: string) => !document.querySelector(sel), {}, row(other.user.id));
  });
});
