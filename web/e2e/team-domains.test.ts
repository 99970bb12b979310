// A team member in the browser: the owner's domain is on their dashboard with a Team badge and opens
// read-only — its analyses, saved configurations and reports are there, and no control that would change
// them is (start, activate, delete, save, report deletion). Their own domain stays fully theirs.

import { registeredClient } from '@csp/functions/src/testing/api-server';
import { sendReport, until } from '@csp/functions/src/testing/reports';
import { READ_ONLY_MESSAGE } from '@csp/shared/schemas/domain';
import { describe, expect, it } from 'vitest';
import { visibleText } from './harness';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();

describe("a member's view of the team owner's domain", () => {
  it('lists it with a Team badge and shows it without any control that changes it', async () => {
    const owner = await registeredClient(t.server.url, { firstName: 'Olive' });
    const domain = await (
      await owner.client.post('/api/domains', { name: 'Owner Site', url: 'https://owner.example/' })
    ).json();
    const analysisId = await seedCompleted(t.server.deps.db, {
      userId: owner.user.id,
      domainId: domain.id,
      url: domain.url,
    });
    const saved = await owner.client.post('/api/csp-configurations', {
      domainId: domain.id,
      name: 'Production',
      baseAnalysisId: analysisId,
      cspRules: { 'default-src': ["'self'"] },
    });
    expect(saved.status).toBe(201);
    const savedId = (await saved.json()).id;
    const report = {
      'document-uri': 'https://owner.example/pricing',
      'violated-directive': 'img-src',
      'blocked-uri': 'https://cdn.other.example/pixel.gif',
    };
    expect((await sendReport(t.server.url, domain.uuid, report)).status).toBe(204);
    await until(
      async () =>
        (await (await owner.client.get(`/api/domains/${domain.id}/uri-reports`)).json()).reports.length,
      (n) => n > 0,
    );
    const team = await (await owner.client.post('/api/teams', { name: 'Agency', slug: 'agency-e2e' })).json();
    const me = await (await t.client.get('/api/user')).json();
    const invitation = await (
      await owner.client.post(`/api/teams/${team.id}/invitations`, { email: me.email })
    ).json();
    const token = new URL(invitation.link).pathname.split('/').pop();
    expect((await t.client.post(`/api/invitations/${token}/accept`)).status).toBe(200);
    const mine = await (
      await t.client.post('/api/domains', { name: 'My Site', url: 'https://mine.example/' })
    ).json();

    await t.page.goto(`${t.server.url}/dashboard`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="domain-row"]');
    const rows = await t.page.$$eval('[data-testid="domain-row"]', (trs) =>
      trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ')),
    );
    expect(rows).toHaveLength(2);
    expect(rows.find((r) => r.includes('Owner Site'))).toContain('Team');
    expect(rows.find((r) => r.includes('My Site'))).not.toContain('Team');

    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="read-only-domain"]');
    await t.page.waitForSelector('[data-testid="configuration-read-only"]');
    await t.page.waitForSelector('[data-testid="report-row"]');
    const text = await visibleText(t.page);
    expect(text).toContain(READ_ONLY_MESSAGE);
    expect(text).toContain('Only the team owner can save or delete configurations.');
    for (const absent of ['Run an Analysis', 'Clear All', 'Deactivate', 'Delete Domain']) {
      expect(text, absent).not.toContain(absent);
    }
    for (const selector of [
      '[data-testid="configuration-save"]',
      '[data-testid="configuration-delete"]',
      'button[aria-label="Delete report"]',
    ]) {
      expect(await t.page.$(selector), selector).toBeNull();
    }
    // The saved configuration can be loaded and read.
    await t.page.select('[data-testid="configuration-select"]', savedId);
    expect(
      await t.page.$eval('[data-testid="configuration-name"]', (el) => (el as HTMLInputElement).value),
    ).toBe('Production');

    // Their own domain has every control.
    await t.page.goto(`${t.server.url}/domains/${mine.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="domain-overview"]');
    await t.page.waitForFunction(() => document.body.innerText.includes('Run an Analysis'));
    expect(await t.page.$('[data-testid="read-only-domain"]')).toBeNull();
  });
});
