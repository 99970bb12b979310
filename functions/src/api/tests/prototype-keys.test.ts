// Keys an attacker chooses, through every API body that takes a map and through the report endpoint: the
// names every JavaScript object already answers to (`constructor`, `__proto__`, …). Never a 5xx, never a
// changed Object.prototype, and what was written reads back as written (a prototype set through a key would
// show as a missing key or a value read through the prototype).
import { randomBytes } from 'node:crypto';
import { crawlRequestSchema } from '@csp/shared/schemas/analysis';
import { configurationMetadataSchema } from '@csp/shared/schemas/configuration';
import { CRAWL_LIMITS } from '@csp/shared/schemas/crawl-limits';
import { TEAM_LIMITS } from '@csp/shared/schemas/team';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalServer } from '../../local/server';
import { createAnalysis } from '../../store/analyses';
import { claimAnalysis, completeAnalysis } from '../../store/analysis-runs';
import { configurationKey } from '../../store/keys';
import { updateFields } from '../../store/update-fields';
import { updateUserFields } from '../../store/users';
import { registeredClient, startTestServer } from '../../testing/api-server';
import type { HttpClient, TestResponse } from '../../testing/http-client';
import { until } from '../../testing/reports';

const KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'] as const;
const RULE_FIELDS = ['cspRules', 'customRules', 'ignoredSuggestions'] as const;

/** Object.prototype as it was before any request: every own property and its value. */
const PROTOTYPE_BEFORE = new Map(
  Reflect.ownKeys(Object.prototype).map((k) => [k, Object.getOwnPropertyDescriptor(Object.prototype, k)]),
);

function expectPrototypeUnchanged() {
  const fresh: Record<string, unknown> = {};
  expect(Object.getPrototypeOf(fresh)).toBe(Object.prototype);
  expect(fresh.polluted).toBeUndefined();
  expect('polluted' in fresh).toBe(false);
  expect(Reflect.ownKeys(Object.prototype)).toEqual([...PROTOTYPE_BEFORE.keys()]);
  for (const [k, d] of PROTOTYPE_BEFORE)
    expect(Object.getOwnPropertyDescriptor(Object.prototype, k)).toEqual(d);
}

/** `{ [key]: value }` as its own property even for `__proto__` (a literal would set the prototype). */
const entry = (key: string, value: unknown) => Object.fromEntries([[key, value]]);

const slug = () => `team-${randomBytes(4).toString('hex')}`;

/** The classic pollution payload and a well-formed list of sources. */
const VALUES = [{ polluted: ['yes'], reportOnlyPolicy: true, includeNonce: true }, ["'self'"]] as const;

let server: LocalServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
  expectPrototypeUnchanged();
});

const RULES = { 'default-src': ["'self'"], 'script-src': ["'self'", 'https://cdn.example'] };

async function signedIn() {
  const { client, user } = await registeredClient(server.url);
  const domain = (await (
    await client.post('/api/domains', { name: 'Shop', url: 'https://shop.example/' })
  ).json()) as { id: string; uuid: string };
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
  return { client, user, domain, analysisId: a.id };
}

const configBody = (domainId: string, baseAnalysisId: string, patch: Record<string, unknown> = {}) => ({
  domainId,
  name: 'Main policy',
  baseAnalysisId,
  cspRules: RULES,
  ...patch,
});

/** Posts the JSON text of `body` (JSON.stringify keeps an own `__proto__` key). */
function send(client: HttpClient, method: 'POST' | 'PUT' | 'PATCH', path: string, body: unknown) {
  const text = JSON.stringify(body);
  return client.request(method, path, text);
}

function expectNo5xx(res: TestResponse, what: string) {
  expect(res.status, what).toBeLessThan(500);
}

async function expectClear400(res: TestResponse, what: string) {
  expect(res.status, what).toBe(400);
  const json = await res.json();
  expect(typeof json.message, what).toBe('string');
  expect(json.message.length, what).toBeGreaterThan(0);
  return json.message as string;
}

describe('prototype keys in configuration maps', () => {
  it('a rules map naming a prototype key is a clear 400 on create and on update, and nothing changes', async () => {
    const { client, domain, analysisId } = await signedIn();
    const created = await client.post('/api/csp-configurations', configBody(domain.id, analysisId));
    expect(created.status).toBe(201);
    const original = await created.json();
    for (const field of RULE_FIELDS) {
      for (const key of KEYS) {
        for (const value of VALUES) {
          const what = `${field}.${key} = ${JSON.stringify(value)}`;
          const rules = { 'script-src': ["'self'"], ...entry(key, value) };
          expect(JSON.stringify(rules), what).toContain(`"${key}"`);
          const patch = { [field]: rules };
          const body = configBody(domain.id, analysisId, patch);
          const message = `${field}: '${key}' is not a CSP directive`;
          const create = await send(client, 'POST', '/api/csp-configurations', body);
          expect(await expectClear400(create, `create ${what}`)).toBe(message);
          const update = await send(client, 'PUT', `/api/csp-configurations/${original.id}`, body);
          expect(await expectClear400(update, `update ${what}`)).toBe(message);
        }
      }
    }
    expectPrototypeUnchanged();
    const list = await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
    expect(list.configurations).toEqual([original]);
  });

  it('metadata with prototype keys: the keys are not read, as an object or as the JSON string', async () => {
    const { client, domain, analysisId } = await signedIn();
    for (const key of KEYS) {
      for (const metadata of [
        entry(key, VALUES[0]),
        JSON.stringify(entry(key, VALUES[0])),
        { reportOnlyPolicy: false, ...entry(key, VALUES[0]) },
      ]) {
        const what = `metadata ${JSON.stringify(metadata)}`;
        const res = await send(
          client,
          'POST',
          '/api/csp-configurations',
          configBody(domain.id, analysisId, { metadata }),
        );
        expect(res.status, what).toBe(201);
        const c = await res.json();
        // Read through a prototype, reportOnlyPolicy and includeNonce would be true (and includeNonce,
        // without a nonce, a 400).
        expect(c.metadata, what).toEqual(configurationMetadataSchema.parse({}));
        const again = await (await client.get(`/api/domains/${domain.id}/csp-configurations`)).json();
        expect(again.configurations.at(-1), what).toEqual(c);
        expect((await client.delete(`/api/csp-configurations/${c.id}`)).status).toBe(200);
      }
    }
    expectPrototypeUnchanged();
  });

  it('prototype keys as unknown fields of the body are not read', async () => {
    const { client, domain, analysisId } = await signedIn();
    for (const key of KEYS) {
      const body = {
        ...configBody(domain.id, analysisId),
        ...entry(key, { name: 'Polluted', isActive: false }),
      };
      const res = await send(client, 'POST', '/api/csp-configurations', body);
      expect(res.status, key).toBe(201);
      const c = await res.json();
      expect(c, key).toMatchObject({ name: 'Main policy', isActive: true, cspRules: RULES, customRules: {} });
      expect(Object.keys(c.customRules)).toEqual([]);
    }
    expectPrototypeUnchanged();
  });

  it('a configuration stored with a `prototype` directive (valid before) still reads, lists and exports', async () => {
    const { client, domain, analysisId } = await signedIn();
    const c = await (await client.post('/api/csp-configurations', configBody(domain.id, analysisId))).json();
    // Written directly, as an older version of the API accepted it; `constructor` cannot be stored at all
    // (the DynamoDB marshaller refuses a map with an own `constructor`).
    const odd = { prototype: ['https://odd.example'], 'img-src': ["'self'"] };
    await updateFields(server.deps.db, configurationKey(c.id), {
      cspRules: { ...RULES, ...odd },
      customRules: odd,
      ignoredSuggestions: odd,
    });
    const list = await client.get(`/api/domains/${domain.id}/csp-configurations`);
    expect(list.status).toBe(200);
    const stored = (await list.json()).configurations[0];
    expect(stored.customRules).toEqual(odd);
    expect(stored.ignoredSuggestions).toEqual(odd);
    for (const format of ['apache', 'nginx', 'iis', 'header']) {
      // Query keys too: the keys are not read, the format is.
      const junk = KEYS.map((k) => `${encodeURIComponent(k)}=nginx`).join('&');
      const res = await client.get(`/api/csp-configurations/${c.id}/export?${junk}&format=${format}`);
      expect(res.status, format).toBe(200);
      expect(await res.text(), format).toContain('prototype https://odd.example');
    }
    // Saved again, the panel's body is refused with a clear message, and the stored item is unchanged.
    const res = await send(client, 'PUT', `/api/csp-configurations/${c.id}`, {
      ...configBody(domain.id, analysisId),
      customRules: odd,
    });
    expect(await expectClear400(res, 'save with prototype')).toMatch(/prototype/);
    expectPrototypeUnchanged();
  });
});

describe('prototype keys in the other bodies', () => {
  it('the crawl request map of a new analysis: its keys reach no default', async () => {
    const { client } = await signedIn();
    for (const key of KEYS) {
      // A domain per key: a domain has one analysis waiting or running at a time.
      const domain = (await (
        await client.post('/api/domains', { name: 'Shop', url: 'https://shop.example/' })
      ).json()) as { id: string };
      const crawlRequest = { ...entry(key, { maxPages: 999, userAgent: 'polluted' }), crawlDelay: 1500 };
      const res = await send(client, 'POST', '/api/csp-analyses', { domainId: domain.id, crawlRequest });
      expect(res.status, key).toBe(201);
      const a = await res.json();
      expect(a, key).toMatchObject({
        maxPages: CRAWL_LIMITS.maxPages.default,
        crawlDelay: 1500,
        userAgent: '',
      });
      // A number given as an object whose own toString is not a function: a clear 400.
      const numberLike = await send(client, 'POST', '/api/csp-analyses', {
        domainId: domain.id,
        crawlRequest: { maxPages: entry(key, 5) },
      });
      expect(await expectClear400(numberLike, `maxPages ${key}`)).toBe('maxPages must be a number');
      const direct = await send(client, 'POST', '/api/csp/analyze', {
        url: 'https://shop.example/',
        ...entry(key, { maxPages: 999 }),
      });
      expect(direct.status, key).toBe(201);
      expect((await direct.json()).analysis.maxPages, key).toBe(CRAWL_LIMITS.maxPages.default);
    }
    expectPrototypeUnchanged();
  });

  it('domains, profile, team, invitation and achievement bodies and paths: never a 5xx', async () => {
    const { client, domain } = await signedIn();
    for (const key of KEYS) {
      const junk = entry(key, { polluted: 'yes', role: 'admin', name: 'Polluted' });
      const answers: [string, TestResponse][] = [
        [
          'domain create',
          await send(client, 'POST', '/api/domains', { name: 'D', url: 'https://d.example/', ...junk }),
        ],
        ['domain patch', await send(client, 'PATCH', `/api/domains/${domain.id}`, { name: 'Shop', ...junk })],
        ['profile', await send(client, 'PATCH', '/api/user/profile', { firstName: 'Ada', ...junk })],
        ['team', await send(client, 'POST', '/api/teams', { name: `Team ${key}`, slug: slug(), ...junk })],
        ['achievement seen', await client.post(`/api/achievements/${encodeURIComponent(key)}/seen`)],
        ['domain by key', await client.get(`/api/domains/${encodeURIComponent(key)}`)],
        [
          'configuration by key',
          await client.get(`/api/csp-configurations/${encodeURIComponent(key)}/export?format=apache`),
        ],
        [
          'export format',
          await client.get(`/api/csp-configurations/x/export?format=${encodeURIComponent(key)}`),
        ],
      ];
      for (const [what, res] of answers) expectNo5xx(res, `${what} ${key}`);
      const status = (what: string) => answers.find(([w]) => w === what)![1].status;
      expect(status('domain create'), key).toBe(201);
      expect(status('domain patch'), key).toBe(200);
      expect(status('profile'), key).toBe(200);
      expect(status('achievement seen'), key).toBe(404);
      expect(status('domain by key'), key).toBe(404);
      expect(status('configuration by key'), key).toBe(404);
      const team = answers.find(([w]) => w === 'team')![1];
      expect(team.status, `team ${key}`).toBe(201);
      const t = await team.json();
      expect(t.name).toBe(`Team ${key}`);
      const inv = await send(client, 'POST', `/api/teams/${t.id}/invitations`, {
        email: 'friend@example.test',
        ...junk,
      });
      expect(inv.status, `invitation ${key}`).toBe(201);
      expect((await inv.json()).role, `invitation ${key}`).toBe('member');
      expect((await client.delete(`/api/teams/${t.id}`)).status).toBe(200);
    }
    // A number given as an object whose own toString/valueOf is not a function: not a number, the default.
    for (const key of ['toString', 'valueOf', '__proto__', 'constructor']) {
      const res = await send(client, 'POST', '/api/teams', {
        name: `Sized ${key}`,
        slug: slug(),
        maxMembers: entry(key, 12),
      });
      expect(res.status, `maxMembers ${key}`).toBe(201);
      const t = await res.json();
      expect(t.maxMembers, key).toBe(TEAM_LIMITS.membersDefault);
      expect((await client.delete(`/api/teams/${t.id}`)).status).toBe(200);
    }
    const me = await (await client.get('/api/user')).json();
    expect(me.role).not.toBe('admin');
    expect(me.firstName).toBe('Ada');
    expectPrototypeUnchanged();
  });

  it('the admin role change: a role given only under a prototype key is no role', async () => {
    const admin = await registeredClient(server.url);
    await updateUserFields(server.deps.db, admin.user.id, { role: 'admin' });
    const { user } = await registeredClient(server.url);
    for (const key of KEYS) {
      const path = `/api/admin/users/${user.id}`;
      const junk = entry(key, { role: 'admin' });
      const missing = await send(admin.client, 'PUT', path, junk);
      expect(await expectClear400(missing, key)).toBe("role must be 'user' or 'admin'");
      const res = await send(admin.client, 'PUT', path, { role: 'user', ...junk });
      expect(res.status, key).toBe(200);
      expect((await res.json()).role, key).toBe('user');
      for (const list of ['users', 'domains', 'analyses']) {
        const page = await admin.client.get(`/api/admin/${list}?cursor=${encodeURIComponent(key)}`);
        expectNo5xx(page, `${list} cursor ${key}`);
      }
    }
    expectPrototypeUnchanged();
  });
});

describe('prototype keys in violation reports', () => {
  /** One report per content type and key: the key as a JSON key at every level, and as the values. */
  function reports(key: string, n: number) {
    const page = `https://shop.example/p${n}?${key}`;
    const legacy = {
      'csp-report': {
        'document-uri': page,
        'violated-directive': key,
        'effective-directive': key,
        'blocked-uri': key,
        'source-file': key,
        ...entry(key, { polluted: 'yes' }),
      },
      ...entry(key, { polluted: 'yes' }),
    };
    const legacyUrl = {
      'csp-report': {
        'document-uri': `${page}&url`,
        'violated-directive': `${key} 'self'`,
        'blocked-uri': `https://${key.toLowerCase().replace(/_/g, 'x')}.example/${key}`,
        ...entry(key, ['x']),
      },
    };
    const batch = [
      {
        type: 'csp-violation',
        url: page,
        age: 5,
        user_agent: 'fuzz',
        body: {
          documentURL: `${page}&batch`,
          effectiveDirective: key,
          blockedURL: key,
          sample: key,
          ...entry(key, { polluted: 'yes' }),
        },
        ...entry(key, { polluted: 'yes' }),
      },
      { type: key, url: page, body: entry(key, 1) },
    ];
    return [
      ['application/csp-report', legacy],
      ['application/json', legacyUrl],
      ['application/reports+json', batch],
    ] as const;
  }

  it('are accepted or refused, never a 5xx; they are counted, listed and suggested without a 5xx', async () => {
    const { client, domain, analysisId } = await signedIn();
    let accepted = 0;
    let n = 0;
    for (const key of KEYS) {
      for (const [type, body] of reports(key, n++)) {
        const res = await fetch(`${server.url}/api/uri-report?domain=${domain.uuid}`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: JSON.stringify(body),
        });
        expect(res.status, `${type} ${key}`).toBe(204);
        accepted += 1;
      }
    }
    expectPrototypeUnchanged();
    // Every accepted report is counted: a consumer failing on one would leave the total short.
    const list = await until(
      async () => {
        const res = await client.get(`/api/domains/${domain.id}/uri-reports`);
        expectNo5xx(res, 'report list');
        return res.json();
      },
      // Totals, group counts and raw reports are separate items: wait for all three.
      (l) =>
        l.total >= accepted &&
        l.reports.length >= accepted &&
        KEYS.every((k) => l.counts.some((g: { directive: string }) => g.directive === k.toLowerCase())),
      20_000,
    );
    expect(list.total).toBe(accepted);
    const directives = new Set(list.counts.map((g: { directive: string }) => g.directive));
    for (const key of KEYS) expect(directives, key).toContain(key.toLowerCase());
    // The stored reports read back as sent: the keys as directive and blocked-uri values.
    type Stored = { id: string; violatedDirective: string; blockedUri: string; sourceFile?: string };
    const stored: Stored[] = list.reports;
    for (const key of KEYS) {
      const legacy = stored.find((r) => r.violatedDirective === key && r.sourceFile === key);
      expect(legacy, key).toMatchObject({ blockedUri: key });
      expect(stored.some((r) => r.violatedDirective === `${key} 'self'`)).toBe(true);
    }
    const proto = stored.find((r) => r.violatedDirective === '__proto__')!;
    expect((await client.delete(`/api/uri-reports/${proto.id}`)).status).toBe(200);

    const junkQuery = KEYS.map((k) => `${encodeURIComponent(k)}=1`).join('&');
    const withJunk = await client.get(`/api/domains/${domain.id}/uri-reports?${junkQuery}`);
    expect(withJunk.status).toBe(200);
    // The __proto__ report deleted above is no longer counted.
    expect((await withJunk.json()).total).toBe(accepted - 1);
    const suggestions = await client.get(`/api/domains/${domain.id}/report-suggestions?${junkQuery}`);
    expectNo5xx(suggestions, 'suggestions');
    expect(suggestions.status).toBe(200);

    // The suggestions' directives go into the configuration maps only as CSP directives: a clear 400.
    const all = (await suggestions.json()).suggestions;
    const ignored = all.filter((s: { directive: string }) =>
      (KEYS as readonly string[]).includes(s.directive),
    );
    for (const s of ignored as { directive: string; source: string }[]) {
      const res = await send(client, 'POST', '/api/csp-configurations', {
        ...configBody(domain.id, analysisId),
        ignoredSuggestions: entry(s.directive, [s.source]),
      });
      await expectClear400(res, `ignore ${s.directive}`);
    }
    expectPrototypeUnchanged();
  });
});
