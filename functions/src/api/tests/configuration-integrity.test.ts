// The integrity options of a saved configuration over HTTP: saved and listed as sent, refused when malformed
// (nothing written), the export of every format carries the headers the shared composition gives, and the
// stored audit warns before an enforced Integrity-Policy refuses the inventory's scripts.
import { randomBytes } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { auditComposed } from '@csp/shared/configurations/audit-composed';
import { composePolicy, exportComposed } from '@csp/shared/configurations/compose';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import type { InventoryEntry } from '@csp/shared/watch/inventory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { createAnalysis } from '../../store/analyses';
import { claimAnalysis, completeAnalysis } from '../../store/analysis-runs';
import { analysisKey } from '../../store/keys';
import { putInventoryMeta, putScriptEntries } from '../../store/script-inventory';
import { registeredClient, startTestServer } from '../../testing/api-server';

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
  'object-src': ["'none'"],
};
const OPTIONS = {
  nonce: null,
  includeNonce: false,
  reportOnlyPolicy: false,
  integrityPolicy: 'enforce',
  reportSha256: true,
  trustedTypes: 'report-only',
  trustedTypesPolicies: ['dompurify', "'allow-duplicates'"],
};

async function signedIn() {
  const { client, user } = await registeredClient(server.url);
  const domain = (await (
    await client.post('/api/domains', { name: 'Shop', url: 'https://shop.example/' })
  ).json()) as {
    id: string;
    uuid: string;
  };
  const a = await createAnalysis(server.deps.db, {
    userId: user.id,
    domainId: domain.id,
    url: 'https://shop.example/',
    crawlRequest: crawlRequestSchema.parse({ url: 'https://shop.example/' }),
  });
  const runId = randomBytes(4).toString('hex');
  await claimAnalysis(server.deps.db, a.id, runId, 60_000);
  await completeAnalysis(server.deps.db, a.id, runId, {
    cspRules: RULES,
    resourceStats: { totalResources: 2, uniqueDomains: 1, securityIssues: 0 },
    errors: [],
    totalPages: 1,
  });
  const body = (metadata: Record<string, unknown>) => ({
    domainId: domain.id,
    name: 'With integrity',
    baseAnalysisId: a.id,
    cspRules: RULES,
    metadata,
  });
  return { client, domain, body, analysisId: a.id };
}

const entry = (
  key: string,
  kind: InventoryEntry['kind'],
  state: InventoryEntry['state'],
): InventoryEntry => ({
  key,
  kind,
  url: kind === 'external' ? `https://cdn.example/${key}.js` : null,
  party: 'third',
  initiator: null,
  digest: `sha384-${key}`,
  digests: [],
  pages: ['https://shop.example/'],
  pageCount: 1,
  firstSeen: '2026-11-20T00:00:00.000Z',
  lastSeen: '2026-11-20T00:00:00.000Z',
  state,
  authorization: null,
  seenBy: 'crawl',
});

describe('configurations: Integrity-Policy, report-sha256 and Trusted Types', () => {
  it('saves and lists the options, and every export carries the headers the composition gives', async () => {
    const { client, domain, body } = await signedIn();
    const res = await client.post('/api/csp-configurations', body(OPTIONS));
    expect(res.status).toBe(201);
    const c = await res.json();
    expect(c.metadata).toEqual(OPTIONS);

    const list = await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
    expect(list.configurations[0].metadata).toEqual(OPTIONS);
    // No run folded into an inventory yet: nothing is known about the scripts' integrity.
    expect(list.scriptsWithoutIntegrity).toBeNull();
    const composed = composePolicy(c, list.reportEndpoint);
    expect(c.audit).toEqual(auditComposed(composed, { scriptsWithoutIntegrity: null }));
    expect(
      c.audit.findings.find((f: { code: string }) => f.code === 'integrity-policy-scripts-without-integrity')
        ?.severity,
    ).toBe('low');

    for (const format of ['apache', 'nginx', 'iis', 'header'] as const) {
      const exported = await client.get(`/api/csp-configurations/${c.id}/export?format=${format}`);
      expect(exported.status).toBe(200);
      const text = await exported.text();
      const expected = exportComposed(format === 'header' ? 'plain' : format, composed);
      expect(text, format).toBe(expected.content);
      expect(expected.headers.map((h) => h.name)).toEqual([
        'Content-Security-Policy',
        'Reporting-Endpoints',
        'Integrity-Policy',
        'Content-Security-Policy-Report-Only',
      ]);
      expect(text).toContain('blocked-destinations=(script), endpoints=(csp-endpoint)');
      expect(text).toContain(
        "require-trusted-types-for 'script'; trusted-types dompurify 'allow-duplicates'",
      );
      expect(text).toContain("'report-sha256'");
    }
  });

  it("the audit counts the inventory's external scripts an enforced Integrity-Policy would refuse", async () => {
    const { client, domain, body } = await signedIn();
    const db = server.deps.db;
    await putScriptEntries(db, domain.id, [
      { entry: entry('a', 'external', 'authorized'), rev: null },
      { entry: entry('b', 'external', 'pending'), rev: null },
      { entry: entry('gone', 'external', 'removed'), rev: null },
      { entry: entry('inline', 'inline', 'authorized'), rev: null },
    ]);
    await putInventoryMeta(db, domain.id, { lastRunAt: '2026-11-20T00:00:00.000Z', analysisId: 'x' }, null);

    const list = await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
    expect(list.scriptsWithoutIntegrity).toBe(2);
    const c = await (await client.post('/api/csp-configurations', body(OPTIONS))).json();
    const finding = c.audit.findings.find(
      (f: { code: string }) => f.code === 'integrity-policy-scripts-without-integrity',
    );
    expect(finding).toMatchObject({ severity: 'medium' });
    expect(finding.description).toContain('saw 2 external scripts');
    expect(c.audit).toEqual(
      auditComposed(composePolicy(c, list.reportEndpoint), { scriptsWithoutIntegrity: 2 }),
    );

    // Report-only first: information, and the grade is what it was without Integrity-Policy.
    const ro = await (
      await client.post('/api/csp-configurations', body({ ...OPTIONS, integrityPolicy: 'report-only' }))
    ).json();
    const off = await (
      await client.post('/api/csp-configurations', body({ ...OPTIONS, integrityPolicy: 'off' }))
    ).json();
    expect(ro.audit.score).toBe(off.audit.score);
    expect(c.audit.score).toBeLessThan(off.audit.score);
  });

  it("enforced Trusted Types are a warning unless the base analysis's dry run found no sink in use", async () => {
    const { client, body, analysisId } = await signedIn();
    const enforced = { ...OPTIONS, integrityPolicy: 'off', trustedTypes: 'enforce' };
    const warned = async () =>
      (
        (await (await client.post('/api/csp-configurations', body(enforced))).json()).audit
          .findings as Array<{
          code: string;
        }>
      ).some((f) => f.code === 'trusted-types-enforced-first');
    // No dry run (an analysis from before it existed): not known to be ready.
    expect(await warned()).toBe(true);
    const setReadiness = (readiness: string) =>
      server.deps.db.doc.send(
        new UpdateCommand({
          TableName: server.deps.db.table,
          Key: analysisKey(analysisId),
          UpdateExpression: 'SET trustedTypes = :tt',
          ExpressionAttributeValues: {
            ':tt': { readiness, sinks: [], sinkCount: 0, pagesChecked: 3, policyNames: [] },
          },
        }),
      );
    await setReadiness('far');
    expect(await warned()).toBe(true);
    await setReadiness('ready');
    expect(await warned()).toBe(false);
  });

  it('refuses malformed options with a clear message and writes nothing', async () => {
    const { client, domain, body } = await signedIn();
    for (const [metadata, message] of [
      [{ integrityPolicy: 'yes' }, /integrityPolicy must be/],
      [{ trustedTypes: 'sometimes' }, /trustedTypes must be/],
      [{ trustedTypesPolicies: ["a'; script-src *"] }, /policy name has letters/],
      [{ trustedTypesPolicies: 'dompurify' }, /list of policy names/],
      [{ trustedTypesPolicies: Array.from({ length: 51 }, (_, i) => `p${i}`) }, /At most 50/],
    ] as const) {
      const res = await client.post('/api/csp-configurations', body(metadata));
      expect(res.status, JSON.stringify(metadata)).toBe(400);
      expect((await res.json()).message).toMatch(message);
    }
    const list = await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
    expect(list.configurations).toEqual([]);
  });
});
