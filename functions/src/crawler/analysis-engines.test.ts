// An analysis started through the API, end to end, with Firefox as the second engine (as `npm start` runs
// it where Firefox is installed): the site's script inserts a <style> block only in Firefox, and Firefox
// fetches the favicon under img-src. The stored analysis says it was verified in Chromium and Firefox,
// what the first pass saw was refined once, and the Firefox-only style got 'unsafe-inline', explained.
// Without a second engine the analysis says which one it could not use and why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../local/server';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { findFirefox, type SecondEngine } from './firefox';
import { engineSiteRoutes } from './fixtures/firefox-content';
import { type FixtureSites, startFixtureSites } from './fixtures/sites';

const firefox = findFirefox(process.env.FIREFOX_PATH);
if ('unavailable' in firefox) console.log('skipped: needs firefox-esr');

const blobDir = mkdtempSync(join(tmpdir(), 'csp-blobs-'));
let sites: FixtureSites | undefined;
const servers: LocalServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  await sites?.close();
  rmSync(blobDir, { recursive: true, force: true });
});

async function analyse(secondEngine: SecondEngine) {
  sites ??= await startFixtureSites({ mainOnly: engineSiteRoutes });
  const server = await startTestServer({
    crawlHandler: (deps) => loopbackCrawlHandler(deps, blobDir, { secondEngine }),
  });
  servers.push(server);
  const { client } = await registeredClient(server.url);
  const domain = await (
    await client.post('/api/domains', { name: 'Engines', url: `${sites.origins.main}/` })
  ).json();
  const res = await client.post('/api/csp-analyses', {
    domainId: domain.id,
    crawlRequest: { crawlDelay: 0 },
  });
  expect(res.status).toBe(201);
  const { id } = await res.json();
  await server.queue.idle();
  return (await (await client.get(`/api/csp/analyze/${id}`)).json()).analysis;
}

describe('the engines of an analysis', () => {
  it.skipIf('unavailable' in firefox)(
    'verified in Chromium and Firefox: what only Firefox blocked is refined away, and said why',
    async () => {
      const analysis = await analyse(firefox);
      expect(analysis.status).toBe('completed');
      const main = sites!.origins.main;
      expect(analysis.verification).toMatchObject({
        violations: 0,
        remaining: [],
        refined: true,
        firstPassViolations: expect.any(Number),
        engines: [
          { engine: 'chromium', pagesChecked: 2, violations: 0 },
          { engine: 'firefox', version: expect.stringMatching(/^firefox\//), pagesChecked: 2, violations: 0 },
        ],
      });
      expect(analysis.verification.firstPassViolations).toBeGreaterThanOrEqual(2);
      expect(analysis.cspRules['style-src']).toContain("'unsafe-inline'");
      expect(analysis.cspRules['img-src']).toContain("'self'");
      for (const directive of ['script-src', 'script-src-elem', 'script-src-attr'])
        expect(analysis.cspRules[directive] ?? []).not.toContain("'unsafe-inline'");
      const finding = analysis.findings.find((f: { code: string }) => f.code === 'engine-inline-style');
      expect(finding?.description).toContain(`${main}/engine-styles`);
      expect(analysis.needsAttention).toBe(false);
    },
    240_000,
  );

  it('without Firefox, says it verified in Chromium only and why', async () => {
    const analysis = await analyse({ unavailable: 'Firefox is not installed on this machine' });
    expect(analysis.verification.engines).toEqual([
      { engine: 'chromium', pagesChecked: 2, violations: 0 },
      { engine: 'firefox', unavailable: 'Firefox is not installed on this machine' },
    ]);
    // Chromium alone never takes the Firefox path: nothing tells it the <style> block exists.
    expect(analysis.findings.some((f: { code: string }) => f.code === 'engine-inline-style')).toBe(false);
    expect(analysis.cspRules['style-src'] ?? []).not.toContain("'unsafe-inline'");
  }, 240_000);
});
