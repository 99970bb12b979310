// Loopback, private and own-endpoint sources never weigh on the grade, and no finding says browsers ignore
// an IPv4 source (they load it).
import { describe, expect, it } from 'vitest';
import { auditPolicy, rulesOfHeader } from '../audit';
import { severityRank } from '../finding';
import { policyBadge } from '../policy-audit';
import { hostKind, hostOfSource, localKind } from './local-sources';

const OWN = 'http://localhost:3000/api/uri-report?domain=d1';
const OWN_LAN = 'http://csp.internal:8080/api/uri-report?domain=d1';

/** What a local crawl of a clean site gives: a second origin for images and fonts, http everywhere. */
const LOCAL_SITE = [
  "default-src 'none'",
  "script-src 'self' http://127.0.0.1:41234 'unsafe-hashes' 'sha256-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG='",
  "style-src 'self' http://127.0.0.1:41234",
  "img-src 'self' http://127.0.0.1:41234 http://localhost:41235",
  'font-src http://[::1]:41236 http://192.168.1.20:8080 http://10.0.0.7',
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
  "frame-ancestors 'self'",
  `report-uri ${OWN_LAN}`,
  'report-to csp-endpoint',
].join('; ');

describe('local sources in the audit', () => {
  it('a loopback, private or own-endpoint source is never above info', () => {
    const audit = auditPolicy(rulesOfHeader(LOCAL_SITE), { productEndpoint: OWN_LAN });
    const named = audit.findings.filter((f) => f.value && localKind(f.value, OWN_LAN));
    // The checks do see them (http:, IP addresses, "make sure it serves no JSONP"): they are kept, as info.
    expect(named.map((f) => f.code)).toEqual(
      expect.arrayContaining(['SRC_HTTP', 'IP_SOURCE', 'SCRIPT_ALLOWLIST_BYPASS']),
    );
    expect(named.filter((f) => f.directive === 'report-uri').map((f) => f.code)).toEqual(['SRC_HTTP']);
    for (const f of named)
      expect(severityRank(f.severity), `${f.code} ${f.value}`).toBe(severityRank('info'));
    expect(named.find((f) => f.value === 'http://127.0.0.1:41234')?.description).toMatch(/loopback/);
    expect(named.find((f) => f.directive === 'report-uri')?.description).toMatch(/own report endpoint/);
    // Nothing to fix on loopback or on the product's endpoint.
    expect(
      named.find((f) => f.code === 'SRC_HTTP' && f.value === 'http://127.0.0.1:41234')?.fix,
    ).toBeUndefined();
  });

  it('so a clean local policy reads Valid and A', () => {
    const audit = auditPolicy(rulesOfHeader(LOCAL_SITE), { productEndpoint: OWN_LAN });
    expect(audit.issues).toBe(0);
    expect(policyBadge(audit)).toBe('Valid');
    expect(audit.grade).toMatch(/^A\+?$/);
  });

  it('the same sources on the public web keep their weight', () => {
    const publicSite = LOCAL_SITE.replaceAll('127.0.0.1:41234', 'cdn.example').replace(OWN_LAN, OWN);
    const audit = auditPolicy(rulesOfHeader(publicSite), { productEndpoint: OWN });
    // http://cdn.example is still an issue: a network attacker can change the script on the way.
    expect(audit.findings).toContainEqual(
      expect.objectContaining({ code: 'SRC_HTTP', value: 'http://cdn.example', severity: 'medium' }),
    );
    expect(policyBadge(audit)).toBe('Security Issues');
    // Another site's http report endpoint is not the product's own: it stays medium.
    const elsewhere = auditPolicy(rulesOfHeader("default-src 'self'; report-uri http://reports.example/r"), {
      productEndpoint: OWN,
    });
    expect(elsewhere.findings).toContainEqual(
      expect.objectContaining({ code: 'SRC_HTTP', directive: 'report-uri', severity: 'medium' }),
    );
  });

  it('no finding says browsers ignore an IPv4 source', () => {
    const audit = auditPolicy(
      rulesOfHeader("img-src http://93.184.216.34 http://192.168.1.20; script-src 'self'"),
    );
    const ip = audit.findings.filter((f) => f.code === 'IP_SOURCE');
    expect(ip).toHaveLength(2);
    for (const f of ip) {
      expect(f.description).not.toMatch(/ignored/);
      expect(f.description).toMatch(/browsers load from it as they would from a named host/);
    }
  });
});

describe('hostKind', () => {
  it('knows loopback and private hosts, and nothing else', () => {
    expect(hostOfSource('http://127.0.0.1:8080/x')).toBe('127.0.0.1');
    expect(hostOfSource('http://[::1]:8080')).toBe('[::1]');
    expect(hostOfSource("'self'")).toBeUndefined();
    for (const h of ['127.0.0.1', '127.4.5.6', 'localhost', 'app.localhost', '[::1]']) {
      expect(hostKind(h), h).toBe('loopback');
    }
    for (const h of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.1.1', '[fd00::1]']) {
      expect(hostKind(h), h).toBe('private');
    }
    for (const h of [
      '172.32.0.1',
      '8.8.8.8',
      'localhost.example',
      '128.0.0.1',
      'cdn.example',
      '[2001:db8::1]',
    ]) {
      expect(hostKind(h), h).toBeUndefined();
    }
  });
});
