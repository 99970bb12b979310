// Test data: a user with one of everything (domain, completed analysis, standalone analysis, configuration,
// violation report), and a scan of the table for the items that still mention some ids (orphan checks).
import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { expect } from 'vitest';
import type { LocalServer } from '../local/server';
import { createAnalysis } from '../store/analyses';
import { claimAnalysis, completeAnalysis } from '../store/analysis-runs';
import { registeredClient } from './api-server';
import { sendReport, until } from './reports';

/** A user with a domain, a completed analysis, a standalone one, a configuration and a violation report. */
export async function userWithData(server: LocalServer) {
  const account = await registeredClient(server.url);
  const { client, user } = account;
  const domain = await (
    await client.post('/api/domains', { name: 'Site', url: 'https://site.example/' })
  ).json();
  const a = await createAnalysis(server.deps.db, {
    userId: user.id,
    domainId: domain.id,
    url: domain.url,
    crawlRequest: crawlRequestSchema.parse({ url: domain.url }),
  });
  const runId = randomBytes(4).toString('hex');
  await claimAnalysis(server.deps.db, a.id, runId, 60_000);
  await completeAnalysis(server.deps.db, a.id, runId, {
    cspRules: { 'default-src': ["'self'"] },
    resourceStats: { totalResources: 1, uniqueDomains: 1, securityIssues: 0 },
    errors: [],
    totalPages: 1,
  });
  const standalone = await createAnalysis(server.deps.db, {
    userId: user.id,
    domainId: null,
    url: 'https://other.example/',
    crawlRequest: crawlRequestSchema.parse({ url: 'https://other.example/' }),
  });
  const config = await client.post('/api/csp-configurations', {
    domainId: domain.id,
    name: 'Main',
    baseAnalysisId: a.id,
    cspRules: { 'default-src': ["'self'"] },
  });
  expect(config.status).toBe(201);
  expect((await sendReport(server.url, domain.uuid)).status).toBe(204);
  await until(
    async () => (await (await client.get(`/api/domains/${domain.id}/uri-reports`)).json()).total,
    (total) => total > 0,
  );
  return {
    ...account,
    domain,
    analysisId: a.id,
    standaloneId: standalone.id,
    configId: (await config.json()).id,
  };
}

/** Every item of the table that mentions one of these ids anywhere (keys or attributes). */
export async function itemsMentioning(
  server: LocalServer,
  ids: string[],
): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await server.deps.db.doc.send(
      new ScanCommand({ TableName: server.deps.db.table, ExclusiveStartKey: start }),
    );
    for (const item of res.Items ?? []) {
      const text = JSON.stringify(item);
      if (ids.some((id) => text.includes(id))) found.push(item);
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return found;
}
