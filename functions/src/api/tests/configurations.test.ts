// Saved configurations over HTTP: every route, the spec's validation messages, 401 without a session,
// 404 for someone else's objects, the cascades (domain deleted, base analysis deleted) and the exports.
import { randomBytes } from 'node:crypto';
import { auditComposed } from '@csp/shared/configurations/audit-composed';
import { composePolicy, exportComposed } from '@csp/shared/configurations/compose';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { createAnalysis, deleteAnalysisCascade } from '../../store/analyses';
import { claimAnalysis, completeAnalysis } from '../../store/analysis-runs';
import { getConfiguration } from '../../store/configurations';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const RULES = {
  'default-src': ["'none'"],
  'script-src': ["'self'", 'https://cdn.example'],
  'img-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'report-uri': ['https://old.example/r'],
};
const NONCE = 'ab'.repeat(32);

async function setup(client: HttpClient, userId: string) {
  const res = await client.post('/api/domains', { name: 'Shop', url: 'https://shop.example/' });
  const domain = (await res.json()) as { id: string; uuid: string };
  const analysis = async (complete: boolean) => {
    const a = await createAnalysis(server.deps.db, {
      userId,
      domainId: domain.id,
      url: 'https://shop.example/',
      crawlRequest: crawlRequestSchema.parse({ url: 'https://shop.example/' }),
    });
    if (!complete) return a.id;
    const runId = randomBytes(4).toString('hex');
    await claimAnalysis(server.deps.db, a.id, runId, 60_000);
    await completeAnalysis(server.deps.db, a.id, runId, {
      cspRules: RULES,
      resourceStats: { totalResources: 3, uniqueDomains: 1, securityIssues: 0 },
      errors: [],
      totalPages: 1,
    });
    return a.id;
  };
  return { domain, completed: await analysis(true), pending: await analysis(false) };
}

async function signedIn() {
  const { client, user } = await registeredClient(server.url);
  return { client, user, ...(await setup(client, user.id)) };
}

const body = (domainId: string, baseAnalysisId: string, patch: Record<string, unknown> = {}) => ({
  domainId,
  name: 'Main policy',
  description: 'What we deploy',
  baseAnalysisId,
  cspRules: RULES,
  ...patch,
});

describe('configurations', () => {
  it('creates with the spec defaults, lists, replaces and deletes', async () => {
    const { client, user, domain, completed } = await signedIn();
    const created = await client.post('/api/csp-configurations', body(domain.id, completed));
    expect(created.status).toBe(201);
    const c = await created.json();
    expect(c).toMatchObject({
      domainId: domain.id,
      userId: user.id,
      name: 'Main policy',
      description: 'What we deploy',
      baseAnalysisId: completed,
      cspRules: RULES,
      customRules: {},
      ignoredSuggestions: {},
      includeUriReports: false,
      includeReportUri: true,
      reportOnlyMode: false,
      serverType: 'apache',
      isActive: true,
      metadata: { nonce: null, includeNonce: false, reportOnlyPolicy: false },
    });
    expect(c.audit.grade).toMatch(/^[A-F]\+?$/);

    const list = await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
    expect(list.configurations.map((x: { id: string }) => x.id)).toEqual([c.id]);
    expect(list.reportEndpoint).toBe(`${server.url}/api/uri-report?domain=${domain.uuid}`);
    // The stored audit is the audit of the composed policy (custom rules, nonce, this domain's report-uri).
    expect(c.audit).toEqual(auditComposed(composePolicy(c, list.reportEndpoint)));

    const put = await client.put(
      `/api/csp-configurations/${c.id}`,
      body(domain.id, completed, {
        name: '  Renamed  ',
        customRules: { 'script-src': ['https://js.stripe.com'] },
        ignoredSuggestions: { 'img-src': ['https://ads.example'] },
        includeUriReports: true,
        reportOnlyMode: true,
        serverType: 'nginx',
        // The spec keeps metadata as a JSON string: accepted as such, answered as an object.
        metadata: JSON.stringify({ nonce: NONCE, includeNonce: true }),
      }),
    );
    expect(put.status).toBe(200);
    const updated = await put.json();
    expect(updated).toMatchObject({
      id: c.id,
      name: 'Renamed',
      customRules: { 'script-src': ['https://js.stripe.com'] },
      ignoredSuggestions: { 'img-src': ['https://ads.example'] },
      includeUriReports: true,
      reportOnlyMode: true,
      serverType: 'nginx',
      metadata: { nonce: NONCE, includeNonce: true, reportOnlyPolicy: false },
      createdAt: c.createdAt,
    });
    expect(updated.audit.findings.map((f: { code: string }) => f.code)).toContain('report-only');

    expect((await client.delete(`/api/csp-configurations/${c.id}`)).status).toBe(200);
    expect(
      (await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json()).configurations,
    ).toEqual([]);
    expect((await client.delete(`/api/csp-configurations/${c.id}`)).status).toBe(404);
  });

  it.each([
    [{ name: '   ' }, 'Please enter a configuration name'],
    [{ name: undefined }, 'Please enter a configuration name'],
    [{ name: 'x'.repeat(256) }, 'The name may have 255 characters at most'],
    [{ baseAnalysisId: null }, 'Please select a base analysis'],
    [{ baseAnalysisId: 'nope' }, 'The base analysis must be an analysis of this domain'],
    [{ cspRules: undefined }, 'cspRules is required'],
    [
      { cspRules: { 'script-src': ["'self'; object-src *"] } },
      'A source cannot contain spaces, quotes ("), backslashes, commas or semicolons',
    ],
    [{ customRules: { 'Script Src': ['x'] } }, 'Directive names are lower-case letters, digits and hyphens'],
    [{ serverType: 'caddy' }, "serverType must be 'apache', 'nginx' or 'iis'"],
    [{ metadata: { nonce: 'short', includeNonce: true } }, 'nonce must be 64 hexadecimal characters'],
    [{ metadata: { includeNonce: true } }, 'includeNonce needs a nonce'],
    [{ metadata: '{not json' }, 'metadata must be a JSON object'],
  ])('rejects %o with a clear message and writes nothing', async (patch, message) => {
    const { client, domain, completed } = await signedIn();
    const res = await client.post('/api/csp-configurations', body(domain.id, completed, patch));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe(message);
    expect(
      (await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json()).configurations,
    ).toEqual([]);
  });

  it('only a completed analysis of this domain can be the base, on create and on update', async () => {
    const { client, domain, completed, pending } = await signedIn();
    const res = await client.post('/api/csp-configurations', body(domain.id, pending));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe('Only a completed analysis can be the base of a configuration');
    const c = await (await client.post('/api/csp-configurations', body(domain.id, completed))).json();
    const put = await client.put(
      `/api/csp-configurations/${c.id}`,
      body(domain.id, pending, { name: 'Changed' }),
    );
    expect(put.status).toBe(400);
    const other = await setup(client, c.userId);
    const moved = await client.put(`/api/csp-configurations/${c.id}`, body(other.domain.id, other.completed));
    expect(moved.status).toBe(400);
    expect((await moved.json()).message).toBe('A configuration cannot move to another domain');
    const cross = await client.put(`/api/csp-configurations/${c.id}`, {
      ...body(domain.id, other.completed),
    });
    expect((await cross.json()).message).toBe('The base analysis must be an analysis of this domain');
    expect((await getConfiguration(server.deps.db, c.id))?.name).toBe('Main policy');
  });

  it('takes a large hash-heavy policy (the item stays under DynamoDB limits) and refuses a larger one', async () => {
    const { client, domain, completed } = await signedIn();
    const hashes = Array.from({ length: 2500 }, (_, i) => `'sha256-${String(i).padStart(43, 'A')}='`);
    const ok = await client.post(
      '/api/csp-configurations',
      body(domain.id, completed, { cspRules: { 'script-src': hashes } }),
    );
    expect(ok.status).toBe(201);
    const tooMany = Array.from({ length: 6000 }, (_, i) => `'sha256-${String(i).padStart(43, 'A')}='`);
    const big = await client.post(
      '/api/csp-configurations',
      body(domain.id, completed, { cspRules: { 'script-src': tooMany } }),
    );
    expect([400, 413]).toContain(big.status);
  });

  it('answers 401 without a session and changes nothing', async () => {
    const { client, domain, completed } = await signedIn();
    const c = await (await client.post('/api/csp-configurations', body(domain.id, completed))).json();
    const anonymous = new HttpClient(server.url);
    for (const res of [
      await anonymous.get(`/api/domains/${domain.id}/csp-configurations`),
      await anonymous.post('/api/csp-configurations', body(domain.id, completed)),
      await anonymous.put(`/api/csp-configurations/${c.id}`, body(domain.id, completed, { name: 'x' })),
      await anonymous.delete(`/api/csp-configurations/${c.id}`),
      await anonymous.get(`/api/csp-configurations/${c.id}/export?format=apache`),
    ]) {
      expect(res.status).toBe(401);
    }
    expect((await getConfiguration(server.deps.db, c.id))?.name).toBe('Main policy');
  });

  it("hides someone else's domain and configurations behind a 404 for every verb", async () => {
    const alice = await signedIn();
    const bob = await signedIn();
    const c = await (
      await alice.client.post('/api/csp-configurations', body(alice.domain.id, alice.completed))
    ).json();
    for (const res of [
      await bob.client.get(`/api/domains/${alice.domain.id}/csp-configurations`),
      await bob.client.post('/api/csp-configurations', body(alice.domain.id, alice.completed)),
      await bob.client.put(`/api/csp-configurations/${c.id}`, body(alice.domain.id, alice.completed)),
      await bob.client.delete(`/api/csp-configurations/${c.id}`),
      await bob.client.get(`/api/csp-configurations/${c.id}/export?format=nginx`),
    ]) {
      expect(res.status).toBe(404);
    }
    // Bob's own domain with Alice's analysis as the base: not an analysis of his domain.
    const res = await bob.client.post('/api/csp-configurations', body(bob.domain.id, alice.completed));
    expect((await res.json()).message).toBe('The base analysis must be an analysis of this domain');
    expect((await getConfiguration(server.deps.db, c.id))?.name).toBe('Main policy');
  });

  it('deleting the domain deletes its configurations; deleting the base analysis detaches them', async () => {
    const { client, domain, completed } = await signedIn();
    const a = await (await client.post('/api/csp-configurations', body(domain.id, completed))).json();
    const b = await (
      await client.post('/api/csp-configurations', body(domain.id, completed, { name: 'Second' }))
    ).json();
    await deleteAnalysisCascade(server.deps.db, { id: completed, domainId: domain.id });
    const list = (await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json())
      .configurations;
    expect(list.map((x: { baseAnalysisId: string | null }) => x.baseAnalysisId)).toEqual([null, null]);
    // A detached configuration needs a new base before it is saved again.
    const put = await client.put(`/api/csp-configurations/${a.id}`, body(domain.id, completed));
    expect(put.status).toBe(400);

    expect((await client.delete(`/api/domains/${domain.id}`)).status).toBe(200);
    expect(await getConfiguration(server.deps.db, a.id)).toBeNull();
    expect(await getConfiguration(server.deps.db, b.id)).toBeNull();
    expect((await client.get(`/api/csp-configurations/${a.id}/export?format=apache`)).status).toBe(404);
  });
});

describe('export', () => {
  it.each([
    ['apache', '.htaccess', 'text/plain'],
    ['nginx', 'nginx.conf', 'text/plain'],
    ['iis', 'web.config', 'application/xml'],
    ['header', 'csp-policy.txt', 'text/plain'],
  ] as const)('%s: the composed policy as %s', async (format, filename, type) => {
    const { client, domain, completed } = await signedIn();
    const c = await (
      await client.post(
        '/api/csp-configurations',
        body(domain.id, completed, {
          customRules: { 'img-src': ['https://img.example/a%20b'] },
          metadata: { reportOnlyPolicy: true },
        }),
      )
    ).json();
    const res = await client.get(`/api/csp-configurations/${c.id}/export?format=${format}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`);
    expect(res.headers.get('content-type')).toContain(type);
    const endpoint = `${server.url}/api/uri-report?domain=${domain.uuid}`;
    const composed = composePolicy(c, endpoint);
    const expected = exportComposed(format === 'header' ? 'plain' : format, composed);
    expect(await res.text()).toBe(expected.content);
    // Every export names the report-only header (csp-policy.txt too, on its first line).
    expect(expected.content).toContain('Content-Security-Policy-Report-Only');
    if (format === 'header') expect(expected.content).toMatch(/^Content-Security-Policy-Report-Only: /);
    expect(expected.content).toContain('https://img.example/a%'); // Apache doubles the %
  });

  it('the nginx export of a nonce configuration uses a fresh nonce per response', async () => {
    const { client, domain, completed } = await signedIn();
    const c = await (
      await client.post(
        '/api/csp-configurations',
        body(domain.id, completed, { serverType: 'nginx', metadata: { nonce: NONCE, includeNonce: true } }),
      )
    ).json();
    const nginx = await (await client.get(`/api/csp-configurations/${c.id}/export?format=nginx`)).text();
    expect(nginx).toContain("'nonce-$request_id'");
    expect(nginx).not.toContain(NONCE);
    const plain = await (await client.get(`/api/csp-configurations/${c.id}/export?format=header`)).text();
    expect(plain).toContain(`'nonce-${NONCE}'`);
  });

  it('rejects an unknown format', async () => {
    const { client, domain, completed } = await signedIn();
    const c = await (await client.post('/api/csp-configurations', body(domain.id, completed))).json();
    const res = await client.get(`/api/csp-configurations/${c.id}/export?format=caddy`);
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("format must be 'apache', 'nginx', 'iis' or 'header'");
  });
});
