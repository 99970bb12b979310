import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import type { Domain } from '@csp/shared/schemas/domain';
import { describe, expect, it } from 'vitest';
import { clickSelector, clickText, confirmDialog, fill, waitForDownload, waitForToast } from './harness';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser({ downloads: true, clipboard: true });

const downloaded = (filename: string) => waitForDownload(t.downloads, filename);

/** Reports as Firefox sends them, through the real endpoint; resolves once the owner API counts them. */
async function sendReports(domain: Domain, reports: Array<[string, string, string]>) {
  for (const [directive, blocked, sample] of reports) {
    const res = await fetch(`${t.server.url}/api/uri-report?domain=${domain.uuid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report', 'user-agent': 'Mozilla/5.0 Firefox/133.0' },
      body: JSON.stringify({
        'csp-report': {
          'document-uri': `${domain.url}pricing`,
          'violated-directive': directive,
          'blocked-uri': blocked,
          'script-sample': sample,
        },
      }),
    });
    expect(res.status).toBe(204);
  }
  for (let i = 0; i < 200; i++) {
    const body = await (await t.client.get(`/api/domains/${domain.id}/uri-reports`)).json();
    if (body.total >= reports.length) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('reports were not counted');
}

const headerText = () =>
  t.page.$eval('[data-testid="config-policy-header"]', (el) =>
    (el as HTMLElement).innerText.replace(/;\n/g, '; '),
  );
const waitForHeader = (needle: string, present = true) =>
  t.page.waitForFunction(
    (n: string, p: boolean) =>
      (document.querySelector('[data-testid="config-policy-header"]')?.textContent?.includes(n) ?? false) ===
      p,
    {},
    needle,
    present,
  );
const suggestion = (blocked: string) => `[data-testid="config-suggestion"][data-blocked="${blocked}"]`;

async function listConfigurations(domainId: string) {
  return (await (await t.client.get(`/api/domains/${domainId}/csp-configurations`)).json())
    .configurations as Array<{
    id: string;
    name: string;
    customRules: Record<string, string[]>;
    ignoredSuggestions: Record<string, string[]>;
    metadata: { nonce: string | null; includeNonce: boolean };
    serverType: string;
  }>;
}

describe('CSP rules generator panel', () => {
  it('saves, loads with its nonce, edits and deletes a configuration; custom rules and report suggestions', async () => {
    const res = await t.client.post('/api/domains', { name: 'Shop', url: 'https://www.example.com/' });
    const domain = (await res.json()) as Domain;
    const target = { userId: t.user.id, domainId: domain.id, url: domain.url };
    await seedCompleted(t.server.deps.db, target);
    await sendReports(domain, [
      ['script-src-elem', 'https://widgets.thirdparty.example/w.js', ''],
      ['img-src', 'https://www.example.com/img/new.png', ''],
      ['script-src-elem', 'inline', '<img src=x onerror=alert(1)>'],
    ]);

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="composed-policy"]');
    // The latest completed analysis is the starting point; Save waits for a name.
    expect(
      await t.page.$eval('[data-testid="configuration-save"]', (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    expect(await t.page.$eval('[data-testid="config-header-name"]', (el) => el.textContent)).toBe(
      'Content-Security-Policy',
    );
    expect(await headerText()).toContain(`report-uri ${t.server.url}/api/uri-report?domain=${domain.uuid}`);

    // A custom rule, added with Enter: trimmed, keywords quoted, duplicates ignored.
    await t.page.select('[data-testid="custom-rule-directive"]', 'font-src');
    await t.page.type('[data-testid="custom-rule-source"]', '  https://fonts.example.net  ');
    await t.page.keyboard.press('Enter');
    await waitForHeader('https://fonts.example.net');
    await t.page.type('[data-testid="custom-rule-source"]', 'https://fonts.example.net');
    await t.page.keyboard.press('Enter');
    expect(
      await t.page.$$eval(
        '[data-testid="custom-rule"][data-directive="font-src"] [data-testid="custom-rule-source-value"]',
        (els) => els.map((e) => e.textContent),
      ),
    ).toEqual(['https://fonts.example.net']);
    await t.page.type('[data-testid="custom-rule-source"]', 'bad;source');
    await t.page.click('[data-testid="custom-rule-add"]');
    await t.page.waitForSelector('#custom-rule-error');

    // Suggestions from the reports: accept the new third party, ignore then un-ignore then ignore the image;
    // the suspicious inline code cannot be accepted in one click.
    await t.page.click('[data-testid="include-uri-reports"]');
    await t.page.waitForSelector(suggestion('https://widgets.thirdparty.example'));
    await t.page.click(`${suggestion('https://widgets.thirdparty.example')} [data-action="accept"]`);
    await t.page.waitForSelector(
      `${suggestion('https://widgets.thirdparty.example')}[data-status="accepted"]`,
    );
    await waitForHeader('https://widgets.thirdparty.example');
    expect(await headerText()).toMatch(/script-src [^;]*https:\/\/widgets\.thirdparty\.example/);
    await t.page.click(`${suggestion('https://www.example.com')} [data-action="ignore"]`);
    await t.page.waitForSelector(`${suggestion('https://www.example.com')}[data-status="ignored"]`);
    await t.page.click(`${suggestion('https://www.example.com')} [data-action="unignore"]`);
    await t.page.waitForSelector(`${suggestion('https://www.example.com')}[data-status="open"]`);
    await t.page.click(`${suggestion('https://www.example.com')} [data-action="ignore"]`);
    expect(
      await t.page.$eval(
        `${suggestion('inline')} [data-action="accept"]`,
        (b) => (b as HTMLButtonElement).disabled,
      ),
    ).toBe(true);

    // The nonce: 64 hex characters in script-src and style-src.
    await t.page.click('[data-testid="include-nonce"]');
    const nonce = await t.page.$eval('[data-testid="nonce-value"]', (el) => el.textContent ?? '');
    expect(nonce).toMatch(/^[0-9a-f]{64}$/);
    await waitForHeader(`'nonce-${nonce}'`);
    expect(await headerText()).toMatch(new RegExp(`style-src [^;]*'nonce-${nonce}'`));

    // Save: POST, then the configuration is selected.
    await t.page.type('[data-testid="configuration-name"]', 'Production policy');
    await t.page.click('[data-testid="configuration-save"]');
    await waitForToast(t.page, 'Configuration saved successfully');
    let saved = await listConfigurations(domain.id);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      name: 'Production policy',
      customRules: {
        'font-src': ['https://fonts.example.net'],
        'script-src': ['https://widgets.thirdparty.example'],
      },
      ignoredSuggestions: { 'img-src': ['https://www.example.com'] },
      metadata: { nonce, includeNonce: true },
    });
    expect(
      await t.page.$eval('[data-testid="configuration-select"]', (s) => (s as HTMLSelectElement).value),
    ).toBe(saved[0]!.id);

    // New clears every field and makes a fresh nonce.
    await t.page.click('[data-testid="configuration-new"]');
    await t.page.waitForFunction(
      () => (document.querySelector('[data-testid="configuration-name"]') as HTMLInputElement).value === '',
    );
    await t.page.click('[data-testid="include-nonce"]');
    // The nonce is shown on the render after the click: wait for it rather than read at once.
    const fresh = await (await t.page.waitForSelector('[data-testid="nonce-value"]'))!.evaluate(
      (el) => el.textContent ?? '',
    );
    expect(fresh).toMatch(/^[0-9a-f]{64}$/);
    expect(fresh).not.toBe(nonce);
    expect(await t.page.$$('[data-testid="custom-rule"]')).toHaveLength(0);

    // Loading restores the fields and the nonce (once the new one's unsaved nonce is given up).
    await t.page.select('[data-testid="configuration-select"]', saved[0]!.id);
    await confirmDialog(t.page, 'Discard changes');
    await t.page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="configuration-name"]') as HTMLInputElement).value ===
        'Production policy',
    );
    expect(await t.page.$eval('[data-testid="nonce-value"]', (el) => el.textContent)).toBe(nonce);
    await waitForHeader(`'nonce-${nonce}'`);

    // Edit: PUT, same configuration.
    await fill(t.page, '[data-testid="configuration-name"]', 'Production policy v2');
    await t.page.waitForSelector('[data-testid="unsaved-changes"]');
    await t.page.click('[data-testid="configuration-save"]');
    await t.page.waitForFunction(() => !document.querySelector('[data-testid="unsaved-changes"]'));
    saved = await listConfigurations(domain.id);
    expect(saved.map((c) => c.name)).toEqual(['Production policy v2']);

    // Copy.
    await t.page.click('[data-testid="config-copy"]');
    await waitForToast(t.page, 'Copied to Clipboard');

    // Delete, after confirming.
    await t.page.click('[data-testid="configuration-delete"]');
    await clickText(t.page, 'dialog//button', 'Delete');
    await waitForToast(t.page, 'Configuration deleted successfully');
    expect(await listConfigurations(domain.id)).toEqual([]);
    expect(
      await t.page.$eval('[data-testid="configuration-name"]', (el) => (el as HTMLInputElement).value),
    ).toBe('');
  });

  it('audits the policy in a worker, with the grade the API gives it; here, where no worker can start', async () => {
    const res = await t.client.post('/api/domains', { name: 'Audited', url: 'https://audited.example.com/' });
    const domain = (await res.json()) as Domain;
    await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: domain.url });
    const grade = '[data-testid="rules-generator"] [data-testid="policy-grade"]';
    const shownGrade = async () =>
      (
        await (await t.page.waitForSelector(grade, { timeout: 20_000 }))!.evaluate((el) => el.textContent)
      )?.trim();

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    const inWorker = await shownGrade();
    expect(t.page.workers().map((w) => new URL(w.url()).pathname)).toContainEqual(
      expect.stringMatching(/^\/assets\/policy-audit\.worker-[\w-]+\.js$/),
    );
    // The API audits the same policy once saved: the same grade.
    await t.page.type('[data-testid="configuration-name"]', 'Audited');
    await t.page.click('[data-testid="configuration-save"]');
    await waitForToast(t.page, 'Configuration saved successfully');
    const [saved] = (await (await t.client.get(`/api/domains/${domain.id}/csp-configurations`)).json())
      .configurations as Array<{ audit: { grade: string } }>;
    expect(inWorker).toContain(saved!.audit.grade);

    // A browser that starts no worker (one refused by a policy, say) gets the same audit from the page.
    const page = await t.browser.newPage();
    try {
      await page.evaluateOnNewDocument(() => {
        window.Worker = class {
          constructor() {
            throw new Error('workers are not allowed here');
          }
        } as unknown as typeof Worker;
      });
      await page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
      const here = await (await page.waitForSelector(grade, { timeout: 20_000 }))!.evaluate(
        (el) => el.textContent,
      );
      expect(here?.trim()).toBe(inWorker);
      expect(page.workers()).toHaveLength(0);
    } finally {
      await page.close();
    }
  });

  it('reports naming constructor, __proto__ and the like as directives: shown, never offered for a policy', async () => {
    const res = await t.client.post('/api/domains', { name: 'Odd', url: 'https://www.example.com/' });
    const domain = (await res.json()) as Domain;
    await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: domain.url });
    const keys = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'];
    await sendReports(
      domain,
      keys.map((k) => [k, `https://${k.toLowerCase().replaceAll('_', 'x')}.example/a.js`, '']),
    );

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="composed-policy"]');
    await t.page.click('[data-testid="include-uri-reports"]');
    const row = (directive: string) => `[data-testid="config-suggestion"][data-directive="${directive}"]`;
    for (const k of ['constructor', '__proto__', 'prototype']) {
      await t.page.waitForSelector(`${row(k)} [data-testid="suggestion-not-savable"]`);
      expect(await t.page.$$(`${row(k)} button`), k).toHaveLength(0);
    }
    // Lower-cased as reports group them, the others are ordinary (custom) names a policy can hold.
    await t.page.click(`${row('tostring')} [data-action="ignore"]`);
    await t.page.waitForSelector(`${row('tostring')}[data-status="ignored"]`);
    await t.page.click(`${row('hasownproperty')} [data-action="accept"]`);
    await t.page.waitForSelector(`${row('hasownproperty')}[data-status="accepted"]`);
    await waitForHeader('hasownproperty https://hasownproperty.example');

    await t.page.type('[data-testid="configuration-name"]', 'Odd names');
    await t.page.click('[data-testid="configuration-save"]');
    await waitForToast(t.page, 'Configuration saved successfully');
    const [saved] = await listConfigurations(domain.id);
    expect(saved).toMatchObject({
      customRules: { hasownproperty: ['https://hasownproperty.example'] },
      ignoredSuggestions: { tostring: ['https://tostring.example'] },
    });
  });

  it('lists the first suggestions and the rest a click away; accepting one listed later works the same', async () => {
    const res = await t.client.post('/api/domains', { name: 'Many', url: 'https://many.example.com/' });
    const domain = (await res.json()) as Domain;
    await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: domain.url });
    const step = REPORT_LIMITS.suggestionsListedFirst;
    const sources = Array.from({ length: step + 2 }, (_, i) => `https://img-${i}.many.example`);
    await sendReports(
      domain,
      sources.map((src) => ['img-src', `${src}/a.png`, '']),
    );

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="composed-policy"]');
    await t.page.click('[data-testid="include-uri-reports"]');
    const more = await t.page.waitForSelector('[data-testid="config-suggestions-more"]');
    const cards = () =>
      t.page.$$eval('[data-testid="config-suggestion"]', (c) => c.map((e) => e.getAttribute('data-blocked')));
    expect(await cards()).toHaveLength(step);
    expect(await more!.evaluate((b) => b.parentElement!.textContent)).toBe(
      `Show 2 more${step} of ${step + 2} shown`,
    );
    await more!.click();
    await t.page.waitForFunction(
      (n: number) => document.querySelectorAll('[data-testid="config-suggestion"]').length === n,
      {},
      step + 2,
    );
    expect(await t.page.$('[data-testid="config-suggestions-more"]')).toBeNull();
    const last = (await cards()).at(-1)!;
    await t.page.click(`${suggestion(last)} [data-action="accept"]`);
    await t.page.waitForSelector(`${suggestion(last)}[data-status="accepted"]`);
    // The seeded policy has an img-src already: wait for the accepted source itself.
    await waitForHeader(new URL(last).origin);
    expect(await headerText()).toMatch(
      new RegExp(`img-src [^;]*${new URL(last).origin.replace(/\./g, '\\.')}`),
    );
    // Saved, so the next test's navigation meets no unsaved-changes prompt.
    await t.page.type('[data-testid="configuration-name"]', 'Many sources');
    await t.page.click('[data-testid="configuration-save"]');
    await waitForToast(t.page, 'Configuration saved successfully');
  });

  it('switches report-only and discovery, and downloads for each server the file the export API serves', async () => {
    const res = await t.client.post('/api/domains', { name: 'Blog', url: 'https://blog.example.com/' });
    const domain = (await res.json()) as Domain;
    await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: domain.url });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="composed-policy"]');

    await clickText(t.page, 'label', 'Report-only');
    await t.page.waitForFunction(
      () =>
        document.querySelector('[data-testid="config-header-name"]')?.textContent ===
        'Content-Security-Policy-Report-Only',
    );
    expect(await t.page.$eval('[data-testid="rollout-hint"]', (el) => el.textContent)).toContain(
      'report what this policy would block',
    );
    expect(await headerText()).toContain('script-src');
    await clickText(t.page, 'label', 'Discovery');
    await t.page.waitForFunction(
      (endpoint: string) =>
        document.querySelector('[data-testid="config-policy-header"]')?.textContent ===
        `default-src 'self';report-uri ${endpoint};report-to csp-endpoint`,
      {},
      `${t.server.url}/api/uri-report?domain=${domain.uuid}`,
    );
    await clickText(t.page, 'label', 'Enforce');
    await t.page.waitForFunction(
      () =>
        document.querySelector('[data-testid="config-header-name"]')?.textContent ===
        'Content-Security-Policy',
    );

    await t.page.type('[data-testid="configuration-name"]', 'Servers');
    await t.page.click('[data-testid="configuration-save"]');
    await waitForToast(t.page, 'Configuration saved successfully');
    for (const [label, format, filename] of [
      ['Nginx', 'nginx', 'nginx.conf'],
      ['IIS', 'iis', 'web.config'],
      ['Apache', 'apache', '.htaccess'],
    ] as const) {
      await clickText(t.page, 'label', label);
      await t.page.waitForSelector('[data-testid="unsaved-changes"]');
      await t.page.click('[data-testid="configuration-save"]');
      await t.page.waitForFunction(() => !document.querySelector('[data-testid="unsaved-changes"]'));
      const [config] = await listConfigurations(domain.id);
      expect(config!.serverType).toBe(format);
      await clickSelector(t.page, '[data-testid="config-download-server"]');
      const file = await downloaded(filename);
      const served = await (
        await t.client.get(`/api/csp-configurations/${config!.id}/export?format=${format}`)
      ).text();
      expect(file).toBe(served);
    }
    await clickSelector(t.page, '[data-testid="config-download-policy"]');
    const policy = await downloaded('csp-policy.txt');
    const [config] = await listConfigurations(domain.id);
    expect(policy).toBe(
      await (await t.client.get(`/api/csp-configurations/${config!.id}/export?format=header`)).text(),
    );
  });

  it('shows the grade of each analysis over time, from the audits the API serves', async () => {
    const res = await t.client.post('/api/domains', { name: 'Docs', url: 'https://docs.example.com/' });
    const domain = (await res.json()) as Domain;
    const target = { userId: t.user.id, domainId: domain.id, url: domain.url };
    const before = await seedCompleted(t.server.deps.db, target, {
      cspRules: { 'default-src': ["'self'"], 'script-src': ["'self'", "'unsafe-inline'", 'https:'] },
      verification: { pagesChecked: 4, violations: 3, samples: [] },
    });
    const after = await seedCompleted(t.server.deps.db, target);
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="history-point"]').length === 2,
    );
    const grades = await t.page.$$eval('[data-testid="history-point"]', (els) =>
      els.map((el) => (el as SVGElement).dataset.grade),
    );
    const audit = async (id: string) =>
      (await (await t.client.get(`/api/csp/analyze/${id}`)).json()).analysis.audit;
    expect(grades).toEqual([(await audit(before)).grade, (await audit(after)).grade]);
    expect(grades[0]).not.toBe(grades[1]);
    expect(await t.page.$$('[data-testid="history-violations"]')).toHaveLength(1);
  });
});
