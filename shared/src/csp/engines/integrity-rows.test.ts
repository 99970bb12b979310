import { describe, expect, it } from 'vitest';
import { policyEngines, protectionsUsed } from './policy-engines';
import { ENGINE_TABLE } from './table';

describe('engine table: integrity rows', () => {
  it('records the versions of report-sha256, Integrity-Policy and its reports, and Trusted Types', () => {
    expect(ENGINE_TABLE['report-sha256'].since).toEqual({ chromium: '133', firefox: null, safari: null });
    expect(ENGINE_TABLE['integrity-policy'].since).toEqual({ chromium: '138', firefox: '145', safari: '26' });
    expect(ENGINE_TABLE['integrity-policy-reports'].since).toEqual({
      chromium: '138',
      firefox: '149',
      safari: null,
    });
    expect(ENGINE_TABLE['trusted-types'].since).toEqual({ chromium: '83', firefox: '148', safari: '26' });
  });
});

describe('protectionsUsed', () => {
  const base = { 'default-src': ["'none'"], 'script-src': ["'self'"] };

  it('names the protections a policy and its headers use, and they never raise the minimum version', () => {
    const rules = {
      ...base,
      'script-src': ["'self'", "'report-sha256'"],
      'require-trusted-types-for': ["'script'"],
    };
    const headers = [
      { name: 'Integrity-Policy', value: 'blocked-destinations=(script), endpoints=(csp-endpoint)' },
    ];
    expect(protectionsUsed(rules, headers)).toEqual([
      'trusted-types',
      'report-sha256',
      'integrity-policy',
      'integrity-policy-reports',
    ]);
    expect(policyEngines(rules)).toEqual(policyEngines(base));
  });

  it('Integrity-Policy without endpoints sends no report; a Trusted Types header of its own counts', () => {
    expect(
      protectionsUsed(base, [
        { name: 'Integrity-Policy-Report-Only', value: 'blocked-destinations=(script)' },
      ]),
    ).toEqual(['integrity-policy']);
    expect(
      protectionsUsed(base, [
        { name: 'Content-Security-Policy-Report-Only', value: "require-trusted-types-for 'script'" },
      ]),
    ).toEqual(['trusted-types']);
    expect(protectionsUsed(base)).toEqual([]);
  });
});
