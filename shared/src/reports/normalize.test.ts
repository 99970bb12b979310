import { describe, expect, it } from 'vitest';
import { legacyReportBodySchema, reportingApiBodySchema, reportingApiEntrySchema } from '../schemas/report';
import { groupSource, reportGroup } from './group';
import { noiseReason, siteHost } from './noise';
import {
  legacyFields,
  maxBodyBytes,
  normalizeBlockedUri,
  parseJsonBody,
  parseReports,
  ReportBodyError,
  reportFormat,
  reportingApiBodyFields,
  reportingApiEntryFields,
} from './normalize';

const receivedAt = new Date('2026-11-24T10:00:00.000Z');

describe('parseReports', () => {
  it('reads a report-uri body, numbers given as strings becoming integers', () => {
    const { reports, otherTypes } = parseReports(
      {
        'csp-report': {
          'document-uri': 'https://www.example.com/a',
          'violated-directive': 'script-src-elem',
          'effective-directive': 'script-src-elem',
          'blocked-uri': 'https://cdn.example.net/x.js',
          'status-code': '200',
          'line-number': '12',
          'column-number': 7,
          'script-sample': '',
          'source-file': 'https://www.example.com/app.js',
          'original-policy': "script-src 'self'; report-uri /r",
          disposition: 'enforce',
        },
      },
      { receivedAt, userAgent: 'Firefox/140' },
    );
    expect(otherTypes).toBe(0);
    expect(reports).toEqual([
      {
        documentUri: 'https://www.example.com/a',
        referrer: undefined,
        blockedUri: 'https://cdn.example.net/x.js',
        violatedDirective: 'script-src-elem',
        effectiveDirective: 'script-src-elem',
        originalPolicy: "script-src 'self'; report-uri /r",
        disposition: 'enforce',
        statusCode: 200,
        scriptSample: '',
        lineNumber: 12,
        columnNumber: 7,
        sourceFile: 'https://www.example.com/app.js',
        userAgent: 'Firefox/140',
        reportedAt: receivedAt.toISOString(),
      },
    ]);
  });

  it('reads a Reporting API batch, counting other report types and dating each report by its age', () => {
    const { reports, otherTypes } = parseReports(
      [
        {
          type: 'csp-violation',
          age: '2000',
          url: 'https://www.example.com/b',
          user_agent: 'Chrome/147',
          body: {
            documentURL: 'https://www.example.com/b',
            blockedURL: 'inline',
            effectiveDirective: 'script-src-elem',
            sample: 'alert(1)',
            lineNumber: '3',
            columnNumber: '9',
            statusCode: 200,
            disposition: 'report',
          },
        },
        { type: 'deprecation', age: 1, url: 'https://www.example.com/b', body: { id: 'x' } },
      ],
      { receivedAt },
    );
    expect(otherTypes).toBe(1);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      documentUri: 'https://www.example.com/b',
      blockedUri: 'inline',
      violatedDirective: 'script-src-elem',
      scriptSample: 'alert(1)',
      lineNumber: 3,
      columnNumber: 9,
      userAgent: 'Chrome/147',
      reportedAt: '2026-11-24T09:59:58.000Z',
    });
  });

  it('refuses bodies without the required fields, with a message naming them', () => {
    const bad: [unknown, RegExp][] = [
      [{}, /csp-report/],
      [{ 'csp-report': 'x' }, /csp-report must be an object/],
      [{ 'csp-report': { 'violated-directive': 'img-src' } }, /document-uri is required/],
      [{ 'csp-report': { 'document-uri': 'https://a.example/' } }, /violated-directive is required/],
      [[], /empty/],
      [
        [{ type: 'csp-violation', body: { documentURL: 'https://a.example/' } }],
        /Report 1: body.effectiveDirective is required/,
      ],
      [[{ body: {} }], /type/],
      [Array.from({ length: 101 }, () => ({})), /100 reports at most/],
    ];
    for (const [body, message] of bad) {
      expect(() => parseReports(body, { receivedAt })).toThrow(ReportBodyError);
      expect(() => parseReports(body, { receivedAt })).toThrow(message);
    }
    expect(() => parseJsonBody('{"csp-report":')).toThrow('Malformed JSON body');
  });

  it('cuts attacker-sized strings and drops numbers that are not numbers', () => {
    const [r] = parseReports(
      {
        'csp-report': {
          'document-uri': `https://www.example.com/${'a'.repeat(5000)}`,
          'violated-directive': 'img-src',
          'script-sample': 'x'.repeat(1000),
          'line-number': 'twelve',
          'column-number': -4,
        },
      },
      { receivedAt },
    ).reports;
    expect(r!.documentUri.length).toBe(2048);
    expect(r!.scriptSample!.length).toBe(256);
    expect(r!.lineNumber).toBeUndefined();
    expect(r!.columnNumber).toBeUndefined();
    expect(r!.blockedUri).toBe('');
  });

  it('knows the formats by content type and their size limits', () => {
    expect(reportFormat('application/csp-report')).toBe('single');
    expect(reportFormat('application/json; charset=utf-8')).toBe('single');
    expect(reportFormat('application/reports+json')).toBe('batch');
    expect(reportFormat('text/plain')).toBeNull();
    expect(reportFormat(undefined)).toBeNull();
    expect(maxBodyBytes('single')).toBe(64 * 1024);
    expect(maxBodyBytes('batch')).toBe(256 * 1024);
  });
});

describe('prototype keys in a report', () => {
  it.each(['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'])(
    '%s as blocked-uri stays that text; as a JSON key it is not read',
    (key) => {
      const body = JSON.parse(
        `{"csp-report": {"document-uri": "https://www.example.com/", "violated-directive": "${key}", "blocked-uri": "${key}", "${key}": {"blocked-uri": "x"}}, "${key}": {}}`,
      );
      const [report] = parseReports(body, { receivedAt }).reports;
      expect(report).toMatchObject({ blockedUri: key, violatedDirective: key });
      expect(noiseReason(report!, 'example.com')).toBeNull();
      expect(reportGroup(report!)).toEqual({ directive: key.toLowerCase(), source: key.toLowerCase() });
    },
  );
});

describe('noise and groups', () => {
  const base = {
    documentUri: 'https://shop.example.com/x',
    blockedUri: '',
    violatedDirective: 'img-src',
    reportedAt: '',
  };
  const site = siteHost('https://www.example.com');

  it('drops extension and browser sources, and documents of other sites', () => {
    expect(site).toBe('example.com');
    for (const blockedUri of [
      'chrome-extension',
      'chrome-extension://abc/x.js',
      'moz-extension://abc/x.js',
      'safari-extension://x',
      'safari-web-extension://x',
      'ms-browser-extension://x',
      'chrome://newtab',
      'resource://gre/x',
      'webkit-masked-url://hidden/',
    ]) {
      expect(noiseReason({ ...base, blockedUri }, site)).toBe('extension');
    }
    expect(noiseReason({ ...base, sourceFile: 'moz-extension://x/c.js', blockedUri: 'inline' }, site)).toBe(
      'extension',
    );
    expect(noiseReason({ ...base, documentUri: 'https://evil.example.net/' }, site)).toBe('offsite');
    expect(noiseReason({ ...base, documentUri: 'https://notexample.com/' }, site)).toBe('offsite');
    expect(noiseReason({ ...base, documentUri: 'about:blank' }, site)).toBe('offsite');
    expect(noiseReason({ ...base, blockedUri: 'https://cdn.example.net/a.png' }, site)).toBeNull();
    expect(noiseReason({ ...base, documentUri: 'https://example.com/' }, site)).toBeNull();
  });

  it('knows a page it saw before by its host, for every site, and past what it remembers', () => {
    const page = 'https://shop.example.com/cart';
    expect(noiseReason({ ...base, documentUri: page }, site)).toBeNull();
    expect(noiseReason({ ...base, documentUri: page }, 'example.org')).toBe('offsite');
    expect(noiseReason({ ...base, documentUri: page }, site)).toBeNull();
    expect(noiseReason({ ...base, documentUri: 'about:blank' }, site)).toBe('offsite');
    for (let i = 0; i < 2500; i++) {
      const onSite = i % 3 !== 0;
      const documentUri = onSite ? `https://Shop.Example.com/p/${i}` : `https://evil${i}.example.net/p`;
      expect(noiseReason({ ...base, documentUri }, site)).toBe(onSite ? null : 'offsite');
      expect(noiseReason({ ...base, documentUri }, site)).toBe(onSite ? null : 'offsite');
    }
    expect(noiseReason({ ...base, documentUri: 'about:blank' }, site)).toBe('offsite');
    expect(noiseReason({ ...base, documentUri: page }, 'example.org')).toBe('offsite');
  });

  it('groups by the first word of the directive and the origin of what was blocked', () => {
    expect(
      reportGroup({
        violatedDirective: "script-src 'self' https://a",
        blockedUri: 'https://cdn.example.net:8443/x.js?y',
      }),
    ).toEqual({
      directive: 'script-src',
      source: 'https://cdn.example.net:8443',
    });
    expect(groupSource('data:image/png;base64,AAAA')).toBe('data:');
    expect(groupSource('blob:https://www.example.com/1-2-3')).toBe('blob:');
    expect(groupSource('about:blank')).toBe('about:');
    expect(groupSource('inline')).toBe('inline');
    expect(groupSource('eval')).toBe('eval');
    expect(groupSource('wss://rt.example.com/socket')).toBe('wss://rt.example.com');
    expect(groupSource('')).toBe('(none)');
  });
});

describe('normalizeBlockedUri', () => {
  it('spells browser keywords one way and leaves names of Object.prototype members as text', () => {
    expect(normalizeBlockedUri(' Inline ')).toBe('inline');
    expect(normalizeBlockedUri('data')).toBe('data:');
    for (const name of ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty']) {
      expect(normalizeBlockedUri(name)).toBe(name);
    }
  });
});

describe('the hand-written reading of reports', () => {
  /** A small seeded generator: the corpus is the same on every run. */
  function random(seed: number) {
    let a = seed;
    return () => {
      a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const PROTO = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];
  /** Field values browsers and attackers send: text of every length, numbers as text, other JSON. */
  const VALUES: unknown[] = [
    undefined,
    null,
    '',
    ' ',
    'https://www.example.com/a',
    'script-src-elem',
    'x'.repeat(300),
    `https://www.example.com/${'a'.repeat(5000)}`,
    'p'.repeat(20_000),
    12,
    0,
    -0,
    -4,
    1.5,
    1e20,
    2 ** 31,
    '12',
    ' 12 ',
    '0x10',
    '-1',
    'twelve',
    '1e3',
    true,
    false,
    {},
    { a: 1 },
    [],
    ['x', 2],
    ...PROTO,
  ];
  const LEGACY_FIELDS = [
    'document-uri',
    'violated-directive',
    'referrer',
    'effective-directive',
    'original-policy',
    'disposition',
    'blocked-uri',
    'status-code',
    'script-sample',
    'line-number',
    'column-number',
    'source-file',
  ];
  const BODY_FIELDS = [
    'documentURL',
    'effectiveDirective',
    'blockedURL',
    'referrer',
    'originalPolicy',
    'disposition',
    'sample',
    'sourceFile',
    'lineNumber',
    'columnNumber',
    'statusCode',
  ];
  const ENTRY_FIELDS = ['type', 'url', 'age', 'user_agent', 'body'];

  /**
   * Objects with some of `fields` (and now and then a prototype name as a key, as JSON.parse makes it: an
   * own property), the required ones usually good so that most objects are accepted.
   */
  function objects(
    seed: number,
    fields: string[],
    good: Record<string, unknown>,
    n: number,
  ): Record<string, unknown>[] {
    const next = random(seed);
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    return Array.from({ length: n }, () => {
      const parts: string[] = [];
      for (const f of fields) {
        const roll = next();
        const value = f in good && roll < 0.7 ? good[f] : roll < 0.85 ? pick(VALUES) : undefined;
        if (value !== undefined) parts.push(`${JSON.stringify(f)}: ${JSON.stringify(value)}`);
      }
      if (next() < 0.3) parts.push(`${JSON.stringify(pick(PROTO))}: ${JSON.stringify(pick(VALUES) ?? 1)}`);
      return JSON.parse(`{${parts.join(', ')}}`) as Record<string, unknown>;
    });
  }

  const NOT_OBJECTS: unknown[] = [undefined, null, 'x', 12, true, [], [{}], ...PROTO];

  /** The fast reading agrees with the schema wherever it answers; where it does not, the schema refuses. */
  function agrees(
    read: (raw: unknown) => unknown,
    schema: { safeParse(raw: unknown): { success: boolean; data?: unknown } },
    corpus: unknown[],
  ) {
    let read1 = 0;
    for (const raw of corpus) {
      const fast = read(raw);
      const parsed = schema.safeParse(raw);
      if (fast === null) {
        expect(parsed.success, JSON.stringify(raw)).toBe(false);
      } else {
        read1++;
        expect(parsed.success, JSON.stringify(raw)).toBe(true);
        expect(fast, JSON.stringify(raw)).toStrictEqual(parsed.data);
      }
    }
    return read1;
  }

  it('reads a report-uri body as its schema does, or leaves it to the schema to refuse', () => {
    const inner = objects(
      1,
      LEGACY_FIELDS,
      { 'document-uri': VALUES[4], 'violated-directive': VALUES[5] },
      3000,
    );
    const corpus = [
      ...inner.map((r) => ({ 'csp-report': r })),
      ...inner.slice(0, 200).map((r) => JSON.parse(`{"csp-report": ${JSON.stringify(r)}, "__proto__": {}}`)),
      ...NOT_OBJECTS,
      ...NOT_OBJECTS.map((r) => ({ 'csp-report': r })),
      JSON.parse(
        '{"__proto__": {"csp-report": {"document-uri": "https://a.example/", "violated-directive": "x"}}}',
      ),
    ];
    const read = agrees(legacyFields, withPresentKeys(legacyReportBodySchema, 'csp-report'), corpus);
    // Most of the corpus is read by hand (else the test would prove little).
    expect(read).toBeGreaterThan(1000);
  });

  it('reads Reporting API entries and bodies as their schemas do, or leaves them to the schemas', () => {
    const bodies = objects(2, BODY_FIELDS, { documentURL: VALUES[4], effectiveDirective: VALUES[5] }, 3000);
    const entries = objects(3, ENTRY_FIELDS, { type: 'csp-violation', body: {} }, 2000);
    expect(
      agrees(reportingApiBodyFields, withPresentKeys(reportingApiBodySchema), [...bodies, ...NOT_OBJECTS]),
    ).toBeGreaterThan(1000);
    expect(
      agrees(reportingApiEntryFields, withPresentKeys(reportingApiEntrySchema), [...entries, ...NOT_OBJECTS]),
    ).toBeGreaterThan(1000);
  });

  it('answers whole bodies as before: the same reports, the same refusals', () => {
    // parseReports with the hand-written reading, against the schemas alone: every field the same, and
    // every refusal with the schema's message.
    const next = random(4);
    const legacy = objects(
      5,
      LEGACY_FIELDS,
      { 'document-uri': VALUES[4], 'violated-directive': VALUES[5] },
      500,
    );
    const bodies = objects(6, BODY_FIELDS, { documentURL: VALUES[4], effectiveDirective: VALUES[5] }, 500);
    let refused = 0;
    for (let i = 0; i < 500; i++) {
      const entry = {
        type: next() < 0.9 ? 'csp-violation' : 'deprecation',
        age: next() < 0.5 ? 2000 : '5',
        body: bodies[i],
      };
      for (const body of [{ 'csp-report': legacy[i] }, [entry, entry], entry]) {
        let message: string | null = null;
        try {
          parseReports(body, { receivedAt, userAgent: 'UA' });
        } catch (e) {
          message = (e as Error).message;
        }
        const legacyCheck =
          Array.isArray(body) || 'type' in body ? null : legacyReportBodySchema.safeParse(body);
        const bodyCheck = reportingApiBodySchema.safeParse(bodies[i]);
        const schemaRefuses = legacyCheck
          ? !legacyCheck.success
          : entry.type === 'csp-violation' && !bodyCheck.success;
        expect(message !== null, JSON.stringify(body)).toBe(schemaRefuses);
        if (message !== null) {
          refused++;
          const issue = (legacyCheck ?? bodyCheck).error!.issues[0]!.message;
          expect(message).toBe(legacyCheck ? issue : `Report 1: ${issue}`);
        }
      }
    }
    expect(refused).toBeGreaterThan(50);
  });
});

/**
 * The schema's output with every field of its shape present (undefined when absent), as the hand-written
 * reading gives it; the values themselves are the schema's.
 */
function withPresentKeys(
  schema: { safeParse(raw: unknown): { success: boolean; data?: unknown }; shape: Record<string, unknown> },
  inner?: string,
) {
  const fill = (data: Record<string, unknown>, keys: string[]) => {
    const out: Record<string, unknown> = {};
    for (const k of keys) out[k] = data[k];
    return out;
  };
  return {
    safeParse(raw: unknown) {
      const r = schema.safeParse(raw);
      if (!r.success) return r;
      const data = r.data as Record<string, unknown>;
      if (!inner) return { success: true, data: fill(data, Object.keys(schema.shape)) };
      const innerShape = (schema.shape[inner] as { shape: Record<string, unknown> }).shape;
      return { success: true, data: fill(data[inner] as Record<string, unknown>, Object.keys(innerShape)) };
    },
  };
}
