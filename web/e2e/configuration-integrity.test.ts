// The rules generator's integrity options in real Chromium: Integrity-Policy, 'report-sha256' and Trusted
// Types change the composed headers as they are chosen, the Trusted Types names start from what the base
// analysis's crawl saw created, 'report-sha256' is off and says why without reporting (or that it needs the
// report address when the configurations could not load), a bad name is refused, and a saved configuration
// keeps the options. Screenshots at 1440 and 390 px go to /tmp/shots-ipol/.
import { mkdirSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { analysisKey } from '@csp/functions/src/store/keys';
import type { Domain } from '@csp/shared/schemas/domain';
import type { TrustedTypesDryRun } from '@csp/shared/schemas/trusted-types';
import type { HTTPRequest } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { fill, intercepting, waitForToast } from './harness';
import { seedCompleted } from './seed';
import { setupSignedInBrowser } from './signed-in-browser';

const t = setupSignedInBrowser();
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-ipol';

const DRY_RUN: TrustedTypesDryRun = {
  readiness: 'default-policy',
  sinks: [],
  sinkCount: 2,
  pagesChecked: 3,
  // Names as the crawl keeps them: only those the directive can carry (the analysis schema refuses others).
  policyNames: ['dompurify', 'app#1'],
};

const text = (selector: string) => t.page.$eval(selector, (el) => (el as HTMLElement).innerText);
const waitForText = (selector: string, needle: string, present = true) =>
  t.page.waitForFunction(
    (s: string, n: string, p: boolean) =>
      (document.querySelector(s)?.textContent?.includes(n) ?? false) === p,
    {},
    selector,
    needle,
    present,
  );
/** Closes the achievement overlays the first domain unlocked, so the screenshots show the panel. */
async function closeOverlays() {
  for (let i = 0; i < 5; i++) {
    const next = await t.page
      .waitForSelector('[data-testid="achievement-continue"]', { timeout: 1500 })
      .catch(() => null);
    if (!next) return;
    await next.click();
    await t.page.waitForFunction(
      (el) => !el.isConnected || (el as HTMLElement).offsetParent === null,
      {},
      next,
    );
  }
}

/** Scrolls an element to the top of the viewport, under the sticky header, and takes a screenshot. */
async function shot(selector: string, file: string) {
  await t.page.waitForSelector(selector);
  await t.page.$eval(selector, (el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -70);
  });
  await t.page.screenshot({ path: `${SHOTS}/${file}` });
}

const chooseMode = (group: string, mode: string) =>
  t.page.click(`[data-testid="${group}"] input[type="radio"][value="${mode}"]`);

describe('rules generator: integrity options', () => {
  it('adds Integrity-Policy, report-sha256 and Trusted Types to the headers, and saves them', async () => {
    const domain = (await (
      await t.client.post('/api/domains', { name: 'Shop', url: 'https://www.example.com/' })
    ).json()) as Domain;
    const analysisId = await seedCompleted(t.server.deps.db, {
      userId: t.user.id,
      domainId: domain.id,
      url: domain.url,
    });
    await t.server.deps.db.doc.send(
      new UpdateCommand({
        TableName: t.server.deps.db.table,
        Key: analysisKey(analysisId),
        UpdateExpression: 'SET trustedTypes = :tt',
        ExpressionAttributeValues: { ':tt': DRY_RUN },
      }),
    );

    await t.page.setViewport({ width: 1440, height: 900 });
    await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
    await t.page.waitForSelector('[data-testid="rules-generator"] [data-testid="integrity-options"]');
    expect(await t.page.$('[data-testid="config-extra-headers"]')).toBeNull();

    // Integrity-Policy report-only: a header beside the policy, reporting to the policy's group.
    await chooseMode('integrity-policy', 'report-only');
    await t.page.waitForSelector('[data-testid="config-extra-integrity-policy-report-only"]');
    expect(await text('[data-testid="config-extra-integrity-policy-report-only"]')).toContain(
      'blocked-destinations=(script), endpoints=(csp-endpoint)',
    );
    await waitForText('[data-testid="config-integrity-notes"]', 'Integrity-Policy-Report-Only');

    // report-sha256 goes into the script directive (the switch is enabled once the report endpoint is known).
    await t.page.waitForSelector('[data-testid="report-sha256"]:not([disabled])');
    await t.page.click('[data-testid="report-sha256"]');
    await waitForText('[data-testid="config-policy-header"]', "'report-sha256'");
    await waitForText('[data-testid="policy-protections"]', 'Chromium 133');

    // Trusted Types report-only: the names the crawl saw created (a malformed one left out), in a
    // report-only header of their own beside the enforced policy.
    await chooseMode('trusted-types', 'report-only');
    await t.page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="trusted-types-names"]') as HTMLInputElement | null)?.value ===
        'dompurify app#1',
    );
    await t.page.waitForSelector('[data-testid="config-extra-content-security-policy-report-only"]');
    expect(await text('[data-testid="config-extra-content-security-policy-report-only"]')).toMatch(
      /require-trusted-types-for 'script';\s*trusted-types dompurify app#1;/,
    );
    expect(await text('[data-testid="config-header-name"]')).toBe('Content-Security-Policy');
    await t.page.waitForSelector('[data-testid="config-server-file"]');
    expect(await text('[data-testid="config-server-file"]')).toContain(
      'Header always set Integrity-Policy-Report-Only',
    );

    await t.page.type('[data-testid="configuration-name"]', 'With integrity');
    mkdirSync(SHOTS, { recursive: true });
    await closeOverlays();
    await shot('[data-testid="integrity-options"]', 'integrity-options-1440.png');
    await shot('[data-testid="config-extra-headers"]', 'integrity-headers-1440.png');

    // A name outside the grammar is refused before saving.
    await fill(t.page, '[data-testid="trusted-types-names"]', "dompurify x'y");
    await t.page.waitForSelector('#trusted-types-names-error');
    await fill(t.page, '[data-testid="trusted-types-names"]', 'dompurify');
    await t.page.waitForFunction(() => !document.querySelector('#trusted-types-names-error'));

    await t.page.click('[data-testid="configuration-save"]');
    await waitForToast(t.page, 'Configuration saved successfully');
    const list = await (await t.client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
    expect(list.configurations[0].metadata).toMatchObject({
      integrityPolicy: 'report-only',
      reportSha256: true,
      trustedTypes: 'report-only',
      trustedTypesPolicies: ['dompurify'],
    });

    // Without reporting, report-sha256 cannot report: the switch is off and says why.
    await t.page.click('[data-testid="include-report-uri"]');
    await waitForText('[data-testid="report-sha256-hint"]', 'Needs reporting');
    expect(
      await t.page.$eval('[data-testid="report-sha256"]', (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    await waitForText('[data-testid="config-policy-header"]', "'report-sha256'", false);
    await t.page.click('[data-testid="include-report-uri"]');
    await waitForText('[data-testid="config-policy-header"]', "'report-sha256'");

    // A phone (the viewport change reloads the page, which opens the configuration as saved).
    await t.page.setViewport({
      width: 390,
      height: 844,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    await waitForText('[data-testid="config-policy-header"]', "'report-sha256'");
    await closeOverlays();
    await shot('[data-testid="integrity-options"]', 'integrity-options-390.png');
    await shot('[data-testid="config-extra-headers"]', 'integrity-headers-390.png');
  }, 120_000);

  it("says 'report-sha256' needs the report address when the configurations could not load, not that reporting is off", async () => {
    const domain = (await (
      await t.client.post('/api/domains', { name: 'Depot', url: 'https://depot.example.com/' })
    ).json()) as Domain;
    await seedCompleted(t.server.deps.db, { userId: t.user.id, domainId: domain.id, url: domain.url });
    const listPath = `/api/domains/${domain.id}/csp-configurations`;
    t.guard.allowFailedRequest(listPath, 503);
    const onRequest = (request: HTTPRequest) => {
      if (new URL(request.url()).pathname === listPath) {
        void request.respond({ status: 503, contentType: 'application/json', body: '{"message":"down"}' });
        return;
      }
      void request.continue();
    };
    await intercepting(t.page, onRequest, async () => {
      await t.page.goto(`${t.server.url}/domains/${domain.id}`, { waitUntil: 'load' });
      await waitForToast(t.page, 'Failed to fetch CSP configurations');
      // Include report-uri is on: what is missing is the address, which comes with the configurations.
      await waitForText('[data-testid="report-sha256-hint"]', 'Available once');
      expect(await text('[data-testid="report-sha256-hint"]')).not.toContain('Needs reporting');
      expect(
        await t.page.$eval('[data-testid="report-sha256"]', (b) => (b as HTMLButtonElement).disabled),
      ).toBe(true);
    });
  }, 60_000);
});
