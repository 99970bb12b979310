// The API's OpenAPI 3.1 document, generated from the live route table — never written by hand. Each route
// Hono knows (method and path) is an operation; the schemas are the very zod schemas its validators check
// (validate.ts records them), turned into JSON Schema by zod; who may call it is read from the middleware on
// its way (requireUser, requireAdmin) and from the API-token table (middleware/api-token.ts). So a route
// cannot be missing from the document, nor its document disagree with what it validates.
import * as z from 'zod';
import { sessionCookieName } from '../auth/session-token';
import { tokenScopeFor } from './middleware/api-token';
import { requireAdmin, requireUser } from './middleware/session';
import { type Validation, validationOf } from './validate';

interface RouteEntry {
  method: string;
  path: string;
  handler: unknown;
}
/** What is read of the app: its route table. */
type RouteTable = { routes: readonly RouteEntry[] };

type JsonSchema = Record<string, unknown>;

export interface Operation {
  method: string;
  /** OpenAPI form: /api/domains/{id} */
  path: string;
  operationId: string;
  tag: string;
  access: 'public' | 'user' | 'admin';
  tokenScope: string | null;
  body: Validation | undefined;
  query: Validation | undefined;
  params: string[];
}

/** Hono's path pattern ("/api/user/*", "/api/domains/:id") as a test of concrete paths. */
function patternTest(pattern: string): (path: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z_]\w*/g, '[^/]+'))
    .join('.*');
  const re = new RegExp(`^${source}$`);
  return (path) => re.test(path);
}

/** Every operation of the app, in the order its routes were defined. */
export function apiOperations(app: RouteTable): Operation[] {
  const routes = app.routes;
  const middleware = routes
    .filter((r) => r.method === 'ALL')
    .map((r) => ({ matches: patternTest(r.path), handler: r.handler }));
  const byKey = new Map<string, RouteEntry[]>();
  for (const r of routes) {
    if (r.method === 'ALL' || r.path.includes('*')) continue;
    const key = `${r.method} ${r.path}`;
    byKey.set(key, [...(byKey.get(key) ?? []), r]);
  }
  const operations: Operation[] = [];
  for (const [key, entries] of byKey) {
    const [method, path] = key.split(' ') as [string, string];
    const handlers = [
      ...middleware.filter((m) => m.matches(path)).map((m) => m.handler),
      ...entries.map((e) => e.handler),
    ];
    const validations = handlers.map((h) => (typeof h === 'function' ? validationOf(h) : undefined));
    const params = [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
    const concrete = path.replace(/:[A-Za-z_]\w*/g, 'x');
    operations.push({
      method: method.toLowerCase(),
      path: path.replace(/:([A-Za-z_]\w*)/g, '{$1}'),
      operationId: `${method.toLowerCase()}${path.replace(/^\/api/, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      tag: path.split('/')[2] ?? 'api',
      access: handlers.includes(requireAdmin) ? 'admin' : handlers.includes(requireUser) ? 'user' : 'public',
      tokenScope: tokenScopeFor(method, concrete),
      body: validations.find((v) => v?.target === 'json'),
      query: validations.find((v) => v?.target === 'query'),
      params,
    });
  }
  return operations;
}

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

function queryParameters(v: Validation | undefined) {
  if (!v) return [];
  const schema = jsonSchema(v.schema);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}

export function openApiDocument(app: RouteTable, info: { version: string; serverUrl?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of apiOperations(app)) {
    const security =
      op.access === 'public'
        ? []
        : op.tokenScope
          ? [{ session: [] }, { bearer: [op.tokenScope] }]
          : [{ session: [] }];
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.operationId,
      tags: [op.tag],
      ...(op.access === 'public' ? { security: [] } : { security }),
      ...(op.tokenScope ? { 'x-token-scope': op.tokenScope } : {}),
      ...(op.access === 'admin' ? { 'x-admin-only': true } : {}),
      parameters: [
        ...op.params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        ...queryParameters(op.query),
      ],
      ...(op.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(op.body.schema) } },
            },
          }
        : {}),
      responses: {
        '2XX': { description: 'Success', content: { 'application/json': { schema: {} } } },
        '4XX': {
          description: 'Refused: the message says why',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'CSP Generator API',
      version: info.version,
      description:
        'Sign in with the browser session (cookie), or send an API token as `Authorization: Bearer cspg_…` on the routes its scopes allow (x-token-scope). Writes with the session need the page origin (CSRF guard); token requests need none.',
    },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    paths,
    components: {
      securitySchemes: {
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: sessionCookieName(false),
          description: `The signed-in browser session (${sessionCookieName(true)} over HTTPS).`,
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'An API token (Settings › API tokens).' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            issues: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  };
}
