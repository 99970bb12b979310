// A saved configuration is what the rules generator shows when its user comes back (name, report-only,
// nonce, server), and unsaved changes are never dropped without a question: leaving by a link, reloading,
// or opening another configuration in the panel.
import type { Domain } from '@csp/shared/schemas/domain';
import type { Dialog } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { clickText, confirmDialog, fill, waitForPath, waitForToast } from './harness';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

/** Each test walks several screens and reloads on a CPU shared with other runs. */
const SLOW = 150_000;

const value = (selector: string) => t.page.$eval(selector, (el) => (el as HTMLInputElement).value);
const waitForName = (name: string) =>
  t.page.waitForFunction(
    (n: string) =>
      (document.querySelector('[data-testid="configuration-name"]') as HTMLInputElement | null)?.value === n,
    { timeout: 15_000 },
    name,
  );
/** The deployment options' chosen values: the mode, then the server (not the integrity options after them). */
const chosen = () =>
  t.page.$$eval(
    '[data-testid="deployment-options"] input[type="radio"]:checked:not([data-testid="integrity-options"] *)',
    (els) => els.map((el) => (el as HTMLInputElement).value),
  );
const headerName = () => t.page.$eval('[data-testid="config-header-name"]', (el) => el.textContent);
const dialogText = () => t.page.$eval('dialog[open]', (el) => (el as HTMLElement).innerText);
const noDialog = () => t.page.waitForFunction(() => !document.querySelector('dialog[open]'));

async function domainWithAnalysis(name: string): Promise<Domain> {
  const domain = (await (
    await t.client.post('/api/domains', { name, url: 'https://www.example.com/' })
  ).json()) as Domain;
  await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: domain.url });
  return domain;
}

async function openDomain(domain: Domain) {
  await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
  await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="composed-policy"]');
}

async function saveAs(name: string) {
  await fill(t.page, '[data-testid="configuration-name"]', name);
  await t.page.click('[data-testid="configuration-save"]');
  await waitForToast(t.page, 'Configuration saved successfully');
  await t.page.waitForFunction(() => !document.querySelector('[data-testid="unsaved-changes"]'));
}

describe('saved configurations in the rules generator', () => {
  it(
    'opens on the configuration saved last, as it was saved: name, report-only, nonce and Nginx',
    async () => {
      const domain = await domainWithAnalysis('Shop');
      await openDomain(domain);
      // An older one with the defaults, so opening on "the first" or on defaults would show.
      await saveAs('Staging');
      await t.page.click('[data-testid="configuration-new"]');
      await waitForName('');
      const [, base] = await t.page.$$eval('[data-testid="configuration-base"] option', (els) =>
        els.map((el) => (el as HTMLOptionElement).value),
      );
      await t.page.select('[data-testid="configuration-base"]', base!);

      await clickText(t.page, 'label', 'Report-only');
      await t.page.click('[data-testid="include-nonce"]');
      const nonce = await t.page.$eval('[data-testid="nonce-value"]', (el) => el.textContent ?? '');
      expect(nonce).toMatch(/^[0-9a-f]{64}$/);
      await clickText(t.page, 'label', 'Nginx');
      await saveAs('Production policy');
      const savedId = await value('[data-testid="configuration-select"]');
      expect(savedId).not.toBe('');

      await t.page.reload({ waitUntil: 'load' });
      await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="composed-policy"]');
      await waitForName('Production policy');
      expect(await value('[data-testid="configuration-select"]')).toBe(savedId);
      expect(await chosen()).toEqual(['report-only', 'nginx']);
      expect(await headerName()).toBe('Content-Security-Policy-Report-Only');
      expect(await t.page.$eval('[data-testid="nonce-value"]', (el) => el.textContent)).toBe(nonce);
      expect(
        await t.page.$eval('[data-testid="config-policy-header"]', (el) => el.textContent ?? ''),
      ).toContain(`'nonce-${nonce}'`);
      // Opened as saved: nothing unsaved, nothing to ask about.
      expect(await t.page.$('[data-testid="unsaved-changes"]')).toBeNull();
    },
    SLOW,
  );

  it(
    'asks before unsaved changes are left or switched away; Stay keeps them, Leave goes',
    async () => {
      const domain = await domainWithAnalysis('Blog');
      await openDomain(domain);
      // A visit that changes nothing leaves without a question.
      await clickText(t.page, 'a', 'Back to Dashboard');
      await waitForPath(t.page, '/dashboard');

      await openDomain(domain);
      await saveAs('Production policy');
      await fill(t.page, '[data-testid="configuration-name"]', 'Production policy v2');
      await t.page.waitForSelector('[data-testid="unsaved-changes"]');

      // A link in the app: the panel asks; Stay keeps the page and the edit.
      await clickText(t.page, 'a', 'Back to Dashboard');
      await t.page.waitForSelector('[data-testid="unsaved-changes-dialog"]');
      expect(await dialogText()).toContain('Leave without saving?');
      expect(await dialogText()).toContain('Production policy v2');
      await confirmDialog(t.page, 'Stay');
      await noDialog();
      expect(new URL(t.page.url()).pathname).toBe(`/domains/${domain.id}`);
      expect(await value('[data-testid="configuration-name"]')).toBe('Production policy v2');

      // New in the panel: asks too; Keep editing keeps the edit and the selection.
      const savedId = await value('[data-testid="configuration-select"]');
      await t.page.select('[data-testid="configuration-select"]', '');
      await t.page.waitForSelector('[data-testid="unsaved-changes-dialog"]');
      expect(await dialogText()).toContain('Discard unsaved changes?');
      await confirmDialog(t.page, 'Keep editing');
      await noDialog();
      expect(await value('[data-testid="configuration-name"]')).toBe('Production policy v2');
      expect(await value('[data-testid="configuration-select"]')).toBe(savedId);

      // A reload: the browser's own prompt; dismissing it keeps the page and the edit.
      const prompted = new Promise<Dialog>((resolve) => t.page.once('dialog', resolve));
      await t.page.evaluate(() => {
        setTimeout(() => location.reload(), 0);
      });
      const dialog = await prompted;
      expect(dialog.type()).toBe('beforeunload');
      await dialog.dismiss();
      await new Promise((r) => setTimeout(r, 500));
      expect(await value('[data-testid="configuration-name"]')).toBe('Production policy v2');

      // Leave without saving: the dashboard; back on the domain, the saved configuration, not the edit.
      await clickText(t.page, 'a', 'Back to Dashboard');
      await confirmDialog(t.page, 'Leave without saving');
      await waitForPath(t.page, '/dashboard');
      await openDomain(domain);
      await waitForName('Production policy');
      expect(await t.page.$('[data-testid="unsaved-changes"]')).toBeNull();
    },
    SLOW,
  );

  it(
    'switching with unsaved changes discards them only after a yes; deleting the domain asks nothing more',
    async () => {
      const domain = await domainWithAnalysis('Docs');
      await openDomain(domain);
      await saveAs('Production policy');
      const savedId = await value('[data-testid="configuration-select"]');
      await clickText(t.page, 'label', 'IIS');
      await t.page.waitForSelector('[data-testid="unsaved-changes"]');
      await t.page.click('[data-testid="configuration-new"]');
      await confirmDialog(t.page, 'Discard changes');
      await waitForName('');
      expect(await value('[data-testid="configuration-select"]')).toBe('');

      // Back to the saved one (the blank new one has nothing to lose): as saved, Apache.
      await t.page.select('[data-testid="configuration-select"]', savedId);
      await waitForName('Production policy');
      expect(await chosen()).toEqual(['enforce', 'apache']);

      // Deleting the domain is its own confirmation: no second question on the way out.
      await clickText(t.page, 'label', 'Nginx');
      await t.page.waitForSelector('[data-testid="unsaved-changes"]');
      await clickText(t.page, 'button', 'Delete Domain');
      await confirmDialog(t.page, 'Delete Domain');
      await waitForPath(t.page, '/dashboard');
      await noDialog();
    },
    SLOW,
  );
});
