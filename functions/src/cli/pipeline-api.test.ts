// The CLI against the running product (the local server on DynamoDB Local, the real crawl handler on loopback
// fixture sites), with a real API token, as a pipeline runs it (the real entry point, a child process):
// `analyze` starts and follows an analysis (exit 0, the policy printed; exit 1 when verification still saw
// violations), `export` writes the configuration's file exactly as the product's export gives it, `check
// --config` compares a live site with the saved configuration; a revoked token, a token without the scope
// and missing variables fail clearly, and the token is never printed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureSites, startFixtureSites } from '../crawler/fixtures/sites';
import type { LocalServer } from '../local/server';
import { registeredClient, startTestServer } from '../testing/api-server';
import { runCliProcess } from '../testing/cli-process';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { policyFromFile } from './policy-file';

let sites: FixtureSites;
let server: LocalServer;
let owner: Awaited<ReturnType<typeof registeredClient>>;
let dir: string;
let token: string;
let readOnlyToken: string;

async function newDomain(name: string, url: string): Promise<string> {
  const res = await owner.client.post('/api/domains', { name, url });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

async function newToken(scopes: string[]): Promise<{ token: string; id: string }> {
  const res = await owner.client.post('/api/user/api-tokens', { name: scopes.join(' '), scopes });
  expect(res.status).toBe(201);
  return await res.json();
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-pipeline-'));
  sites = await startFixtureSites({
    mainOnly: (o) => ({
      '/': {
        body: `<!doctype html><html lang="en"><head><title>Shop</title><script src="${o.cdn}/lib.js"></script></head><body><h1>Shop</h1></body></html>`,
      },
      // An inline script that changes on every load: no hash can allow it, so verification keeps seeing it.
      '/changing': {
        body: () =>
          `<!doctype html><html lang="en"><head><title>Changing</title></head><body><script>window.v = ${Math.random()};</script></body></html>`,
      },
    }),
  });
  server = await startTestServer({
    crawlHandler: (deps) =>
      loopbackCrawlHandler(deps, join(dir, 'blobs'), { crawlOptions: { rerender: false } }),
  });
  owner = await registeredClient(server.url);
  token = (await newToken(['read', 'analyses:write'])).token;
  readOnlyToken = (await newToken(['read'])).token;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await sites?.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (args: string[], withToken = token) =>
  runCliProcess(args, {
    env: { CSP_GENERATOR_URL: server.url, CSP_GENERATOR_TOKEN: withToken },
    timeoutMs: 180_000,
  });

/** Nothing the CLI wrote holds the token. */
function expectNoToken(run: { stdout: string; stderr: string }, value = token) {
  expect(run.stdout).not.toContain(value);
  expect(run.stderr).not.toContain(value);
  expect(run.stderr).not.toContain(value.slice(5));
}

describe('analyze, export and check --config through the API', () => {
  let analysisId: string;
  let domainId: string;

  it('analyze starts an analysis, follows it on stderr and prints its policy (exit 0)', async () => {
    domainId = await newDomain('Shop', `${sites.origins.main}/`);
    const run = await cli(['analyze', '--domain', domainId, '--max-pages', '1', '--json']);
    expect(run.code).toBe(0);
    expectNoToken(run);
    const analysis = JSON.parse(run.stdout);
    expect(analysis.status).toBe('completed');
    expect(analysis.verification.violations).toBe(0);
    expect(analysis.cspRules['script-src']).toContain(sites.origins.cdn);
    expect(run.stderr).toMatch(/^Analysis \S+ of .* started\.$/m);
    expect(run.stderr).toMatch(/^analyze: 1 pages, grade [A-F]; verified on 1 pages: no violations$/m);
    analysisId = analysis.id;
    // The product has the same analysis, done.
    const seen = await (await owner.client.get(`/api/csp/analyze/${analysisId}`)).json();
    expect(seen.analysis.status).toBe('completed');
  }, 180_000);

  it('export writes the configuration file the product exports; check --config compares the live site with it', async () => {
    const created = await owner.client.post('/api/csp-configurations', {
      domainId,
      name: 'Release',
      baseAnalysisId: analysisId,
      cspRules: (await (await owner.client.get(`/api/csp/analyze/${analysisId}`)).json()).analysis.cspRules,
      serverType: 'nginx',
    });
    expect(created.status).toBe(201);
    const configId = (await created.json()).id as string;

    const out = join(dir, 'nginx.conf');
    const run = await cli(['export', '--config', configId, '--format', 'nginx', '--out', out], readOnlyToken);
    expect(run.code).toBe(0);
    expectNoToken(run, readOnlyToken);
    const fromProduct = await (
      await owner.client.get(`/api/csp-configurations/${configId}/export?format=nginx`)
    ).text();
    expect(await readFile(out, 'utf8')).toBe(fromProduct);
    expect(fromProduct).toContain('add_header Content-Security-Policy');
    expect(run.stderr).toContain(`wrote ${out}`);

    // No --out: the file on stdout.
    const header = await cli(['export', '--config', configId, '--format', 'header'], readOnlyToken);
    expect(header.code).toBe(0);
    expect(header.stdout).toMatch(/^Content-Security-Policy: /);

    // The live site serving what the configuration sends: it matches; serving the analysis' bare policy
    // (no report-uri) is drift.
    const sent = policyFromFile(header.stdout)!;
    sites.setPolicy(sent.value);
    const matches = await cli(['check', `${sites.origins.main}/`, '--config', configId], readOnlyToken);
    expect(matches.stdout).toContain('matching configuration');
    expect(matches.code).toBe(0);
    sites.setPolicy(sent.value.replace(/; report-uri [^;]+/, ''));
    const drifted = await cli(['check', `${sites.origins.main}/`, '--config', configId], readOnlyToken);
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toMatch(/report-uri \(not served\): - http/);
    sites.setPolicy(null);
    expectNoToken(drifted, readOnlyToken);
  }, 120_000);

  it('analyze exits 1 when the verified policy still saw violations, and says what was blocked', async () => {
    const changing = await newDomain('Changing', `${sites.origins.main}/changing`);
    const run = await cli(['analyze', '--domain', changing, '--max-pages', '1']);
    expect(run.stderr).toMatch(/verified on 1 pages: \d+ violations left/);
    expect(run.stderr).toMatch(/still blocked: script-src\S* inline on /);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Content-Security-Policy: /);
  }, 180_000);

  it('refuses clearly: a token without the scope, a revoked token, no token, an unknown configuration', async () => {
    const noScope = await cli(['analyze', '--domain', domainId], readOnlyToken);
    expect(noScope.code).toBe(3);
    expect(noScope.stderr).toContain("403: This API token lacks the 'analyses:write' scope");
    expectNoToken(noScope, readOnlyToken);

    const { token: revoked, id } = await newToken(['read']);
    expect((await owner.client.delete(`/api/user/api-tokens/${id}`)).status).toBe(200);
    const refused = await cli(['export', '--config', 'x', '--format', 'nginx'], revoked);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('401: Invalid or revoked API token');
    expectNoToken(refused, revoked);

    const missing = await runCliProcess(['export', '--config', 'x', '--format', 'nginx'], {
      env: { CSP_GENERATOR_URL: server.url },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('CSP_GENERATOR_TOKEN is not set');

    const unknown = await cli(['export', '--config', 'nope', '--format', 'nginx'], readOnlyToken);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('404');
  }, 60_000);
});
