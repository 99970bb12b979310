import { describe, expect, it } from 'vitest';
import { groupSource, reportGroup } from './group';
import { noiseReason, siteHost } from './noise';
import {
  maxBodyBytes,
  normalizeBlockedUri,
  parseJsonBody,
  parseReports,
  ReportBodyError,
  reportFormat,
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
