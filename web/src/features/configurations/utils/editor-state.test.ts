import { type Configuration, configurationMetadataSchema } from '@csp/shared/schemas/configuration';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { blankState, bodyOf, isDirty, openingConfiguration, stateOf } from './editor-state';

const NONCE = 'c'.repeat(64);
const saved = (metadata: z.input<typeof configurationMetadataSchema>): Configuration => ({
  id: 'c1',
  domainId: 'd1',
  userId: 'u1',
  name: 'Main',
  description: '',
  baseAnalysisId: 'a1',
  cspRules: { 'script-src': ["'self'"] },
  customRules: {},
  ignoredSuggestions: {},
  includeUriReports: false,
  includeReportUri: true,
  reportOnlyMode: false,
  serverType: 'nginx',
  isActive: true,
  metadata: configurationMetadataSchema.parse(metadata),
  audit: { grade: 'A', score: 97, issues: 0, findings: [] },
  createdAt: '',
  updatedAt: '',
});

describe('editor state (spec section 4)', () => {
  it('New clears every field and makes a fresh 64-hex nonce each time', () => {
    const a = blankState();
    const b = blankState();
    expect(a.nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(a.nonce).not.toBe(b.nonce);
    expect({ ...a, nonce: '' }).toEqual({ ...b, nonce: '' });
    expect(a).toMatchObject({ selectedId: null, name: '', includeReportUri: true, serverType: 'apache' });
  });

  it('loading restores the nonce only when it was enabled', () => {
    expect(stateOf(saved({ nonce: NONCE, includeNonce: true, reportOnlyPolicy: false })).nonce).toBe(NONCE);
    const off = stateOf(saved({ nonce: null, includeNonce: false, reportOnlyPolicy: false }), 'd'.repeat(64));
    expect(off.nonce).toBe('d'.repeat(64));
  });

  it('round-trips and knows when there are unsaved changes', () => {
    const c = saved({ nonce: NONCE, includeNonce: true, reportOnlyPolicy: true });
    const s = stateOf(c);
    expect(bodyOf(s).metadata).toEqual(c.metadata);
    expect(isDirty(s, stateOf(c))).toBe(false);
    expect(isDirty({ ...s, name: 'Other' }, stateOf(c))).toBe(true);
    expect(isDirty({ ...s, serverType: 'apache' }, stateOf(c))).toBe(true);
    expect(isDirty({ ...s, reportOnlyPolicy: false }, stateOf(c))).toBe(true);
    expect(isDirty(blankState(), blankState())).toBe(false);
    // A new configuration started from an analysis is unchanged until the user changes it.
    const started = { ...blankState(), baseAnalysisId: 'a1', cspRules: { 'script-src': ["'self'"] } };
    expect(isDirty({ ...started }, started)).toBe(false);
    expect(isDirty({ ...started, includeNonce: true }, started)).toBe(true);
    // A nonce not enabled is not saved.
    expect(bodyOf({ ...s, includeNonce: false }).metadata.nonce).toBeNull();
  });

  it('opens on the active configuration saved last, else on the one saved last', () => {
    const at = (id: string, updatedAt: string, isActive: boolean): Configuration => ({
      ...saved({ nonce: null, includeNonce: false, reportOnlyPolicy: false }),
      id,
      updatedAt,
      isActive,
    });
    expect(openingConfiguration([])).toBeUndefined();
    const old = at('old', '2026-11-01T00:00:00.000Z', true);
    const recent = at('recent', '2026-11-20T00:00:00.000Z', true);
    const inactive = at('inactive', '2026-11-25T00:00:00.000Z', false);
    expect(openingConfiguration([old, recent, inactive])?.id).toBe('recent');
    expect(openingConfiguration([recent, old])?.id).toBe('recent');
    expect(openingConfiguration([{ ...old, isActive: false }, inactive])?.id).toBe('inactive');
  });
});

describe('editor state: the integrity options', () => {
  it('start off, load as saved, and save the typed names as a list', () => {
    expect(blankState()).toMatchObject({
      integrityPolicy: 'off',
      reportSha256: false,
      trustedTypes: 'off',
      trustedTypesNames: '',
    });
    const c = saved({
      integrityPolicy: 'report-only',
      reportSha256: true,
      trustedTypes: 'enforce',
      trustedTypesPolicies: ['dompurify', "'allow-duplicates'"],
    });
    const s = stateOf(c);
    expect(s).toMatchObject({ integrityPolicy: 'report-only', reportSha256: true, trustedTypes: 'enforce' });
    expect(s.trustedTypesNames).toBe("dompurify 'allow-duplicates'");
    expect(bodyOf(s).metadata).toEqual(c.metadata);
    expect(isDirty({ ...s, trustedTypesNames: "dompurify, 'allow-duplicates' " }, stateOf(c))).toBe(false);
    expect(bodyOf({ ...s, trustedTypesNames: ' a,b  c ' }).metadata.trustedTypesPolicies).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(isDirty({ ...s, integrityPolicy: 'enforce' }, stateOf(c))).toBe(true);
    expect(isDirty({ ...s, reportSha256: false }, stateOf(c))).toBe(true);
  });
});
