// The OpenAPI document over HTTP: valid OpenAPI 3.1 (checked by an independent validator), one operation per
// route of the live app, request schemas that the routes really enforce (a body missing what the document
// requires is refused with 400), the bearer scheme on the routes tokens may use, and /api/docs readable under
// the product's own CSP.
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWN_POLICY } from '../../http/security-headers';
import type { LocalServer } from '../../local/server';
import { registeredClient, startTestServer } from '../../testing/api-server';
import { HttpClient } from '../../testing/http-client';
import { createApiApp } from '../app';

let server: LocalServer;
// biome-ignore lint/suspicious/noExplicitAny: a JSON document read back
let doc: any;

beforeAll(async () => {
  server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
  const res = await new HttpClient(server.url).get('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = await res.json();
}, 60_000);
afterAll(() => server?.close());

const operations = () =>
  Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>).flatMap(
    ([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('has one operation per route of the app, and nothing else', () => {
    const app = createApiApp(server.deps);
    const routes = new Set(
      app.routes
        .filter((r) => r.method !== 'ALL' && !r.path.includes('*'))
        .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    const documented = new Set(operations().map((o) => `${o.method} ${o.path}`));
    expect([...documented].sort()).toEqual([...routes].sort());
    // The routes a pipeline needs are there, with their parameters.
    for (const key of [
      'post /api/csp-analyses',
      'get /api/csp/analyze/{id}',
      'get /api/csp-configurations/{id}/export',
    ]) {
      expect(documented).toContain(key);
    }
    expect(routes.size).toBeGreaterThan(50);
  });

  it('documents request bodies that the routes enforce: what it requires, the route requires', async () => {
    const { client } = await registeredClient(server.url);
    const checked: string[] = [];
    for (const { path, method, op } of operations()) {
      const schema = (
        op.requestBody as { content?: Record<string, { schema?: { required?: string[] } }> } | undefined
      )?.content?.['application/json']?.schema;
      if (!schema?.required?.length || op['x-admin-only']) continue;
      if (['/api/login', '/api/register'].includes(path)) continue; // the sign-in budget is tight by design
      const url = path.replace(/\{\w+\}/g, 'x');
      const res = await client.request(method.toUpperCase(), url, {});
      expect(res.status, `${method} ${path} with {}`).toBe(400);
      checked.push(`${method} ${path}`);
    }
    expect(checked.length).toBeGreaterThan(5);
  });

  it("carries the validators' own schemas: a token's scopes, an analysis' crawl request", () => {
    const token = doc.paths['/api/user/api-tokens'].post.requestBody.content['application/json'].schema;
    expect(token.properties.scopes.items.enum).toEqual(['read', 'analyses:write', 'configurations:write']);
    expect(token.required).toEqual(expect.arrayContaining(['name', 'scopes']));
    const analyze = doc.paths['/api/csp/analyze'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(analyze)).toContain('maxPages');
    const start = doc.paths['/api/csp-analyses'].post.requestBody.content['application/json'].schema;
    expect(start.properties.crawlRequest.description).toContain('POST /api/csp/analyze');
  });

  it('says who may call each route: the session, an API token with its scope, admins, anyone', () => {
    expect(doc.components.securitySchemes.bearer).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const start = doc.paths['/api/csp-analyses'].post;
    expect(start['x-token-scope']).toBe('analyses:write');
    expect(start.security).toEqual([{ session: [] }, { bearer: ['analyses:write'] }]);
    expect(doc.paths['/api/user/password'].patch.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/admin/users'].get['x-admin-only']).toBe(true);
    expect(doc.paths['/api/login'].post.security).toEqual([]);
  });
});

describe('/api/docs', () => {
  it('is a page under the product’s own CSP, with every operation and no inline style or script', async () => {
    const res = await new HttpClient(server.url).get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toBe(OWN_POLICY);
    const html = await res.text();
    expect(html).not.toMatch(/<script|style=|<style/i);
    for (const { path } of operations()) expect(html).toContain(`<code>${path}</code>`);
    const css = await new HttpClient(server.url).get('/api/docs.css');
    expect(css.headers.get('content-type')).toContain('text/css');
  });
});
