import { describe, expect, it } from 'vitest';
import { configurationBodySchema, isSavableDirectiveName } from './configuration';

const KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'] as const;
const FIELDS = ['cspRules', 'customRules', 'ignoredSuggestions'] as const;

/** A configuration body as JSON text, the way it arrives: `__proto__` is then an own key. */
function parseBody(field: string, rulesJson: string) {
  const rules = field === 'cspRules' ? rulesJson : '{"default-src": ["\'self\'"]}';
  const extra = field === 'cspRules' ? '' : `, "${field}": ${rulesJson}`;
  return configurationBodySchema.safeParse(JSON.parse(`{"name": "Main", "cspRules": ${rules}${extra}}`));
}

describe('rule maps refuse names every object inherits', () => {
  it.each(FIELDS.flatMap((f) => KEYS.map((k) => [f, k] as const)))('%s with %s', (field, key) => {
    const res = parseBody(field, `{"script-src": ["'self'"], "${key}": ["'self'"]}`);
    expect(res.success).toBe(false);
    expect(res.error?.issues[0]?.message).toBe(`${field}: '${key}' is not a CSP directive`);
  });

  it('an own __proto__ key is not dropped silently, whatever its value', () => {
    const res = parseBody('customRules', '{"__proto__": {"polluted": ["yes"]}}');
    expect(res.success).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('directive names, known and custom, are still accepted', () => {
    const res = parseBody('customRules', `{"script-src": ["'self'"], "fenced-frame-src": ["'none'"]}`);
    expect(res.success).toBe(true);
    expect(Object.keys(res.data?.customRules ?? {})).toEqual(['script-src', 'fenced-frame-src']);
    expect(isSavableDirectiveName('script-src')).toBe(true);
    for (const key of KEYS) expect(isSavableDirectiveName(key), key).toBe(false);
  });
});
