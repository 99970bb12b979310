import { describe, expect, it } from 'vitest';
import {
  acceptSuggestion,
  addCustomRule,
  ignoreSuggestion,
  isSuggestionSavable,
  normalizeSource,
  removeCustomRule,
  suggestionStatus,
  unignoreSuggestion,
} from './editor';

describe('custom rules (spec section 5)', () => {
  it('trimmed, ignored if empty, not duplicated', () => {
    let r = addCustomRule({}, 'script-src', '  https://cdn.example  ');
    expect(r).toEqual({
      customRules: { 'script-src': ['https://cdn.example'] },
      added: 'https://cdn.example',
    });
    expect(addCustomRule(r.customRules, 'script-src', '   ')).toEqual({
      customRules: r.customRules,
      added: null,
    });
    r = addCustomRule(r.customRules, 'script-src', 'https://cdn.example');
    expect(r.added).toBeNull();
    expect(r.customRules['script-src']).toEqual(['https://cdn.example']);
  });

  it('keywords are quoted and lower-cased; nonces and hashes keep their case', () => {
    expect(normalizeSource('self')).toEqual({ source: "'self'" });
    expect(normalizeSource("'UNSAFE-INLINE'")).toEqual({ source: "'unsafe-inline'" });
    expect(normalizeSource("'sha256-AbC+/='")).toEqual({ source: "'sha256-AbC+/='" });
    expect(normalizeSource('https://Cdn.example/Path')).toEqual({ source: 'https://Cdn.example/Path' });
  });

  it('refuses what no header can carry, with a message, and changes nothing', () => {
    for (const bad of ['https://a.example; script-src *', 'a b', 'x"y', 'a,b', 'a\\b']) {
      const r = addCustomRule({ 'img-src': ["'self'"] }, 'img-src', bad);
      expect(r.error, bad).toMatch(/cannot contain/);
      expect(r.customRules).toEqual({ 'img-src': ["'self'"] });
    }
    expect(addCustomRule({}, 'Script Src', 'x').error).toBe('Choose a directive');
  });

  it('removes a rule, and the directive when it is empty', () => {
    expect(removeCustomRule({ 'img-src': ['a'], 'font-src': ['b'] }, 'img-src', 'a')).toEqual({
      'font-src': ['b'],
    });
  });
});

describe('suggestions (spec section 4): open, accepted or ignored', () => {
  const composed = { 'default-src': ["'none'"], 'script-src': ["'self'"], 'img-src': ["'self'"] };
  const suggestion = { directive: 'script-src-elem', source: 'https://js.stripe.com' };

  it('accepting adds to the custom rules of the directive the browser consults and un-ignores', () => {
    const ignored = ignoreSuggestion({ customRules: {}, ignoredSuggestions: {} }, suggestion);
    expect(suggestionStatus(ignored, composed, suggestion)).toBe('ignored');
    const accepted = acceptSuggestion(ignored, composed, suggestion);
    expect(accepted).toEqual({
      customRules: { 'script-src': ['https://js.stripe.com'] },
      ignoredSuggestions: {},
    });
    expect(suggestionStatus(accepted, composed, suggestion)).toBe('accepted');
  });

  it('un-ignoring makes it open again', () => {
    const state = unignoreSuggestion(
      ignoreSuggestion({ customRules: {}, ignoredSuggestions: {} }, suggestion),
      suggestion,
    );
    expect(suggestionStatus(state, composed, suggestion)).toBe('open');
  });

  it('where only default-src governs, the new directive keeps what default-src allowed', () => {
    const state = acceptSuggestion(
      { customRules: {}, ignoredSuggestions: {} },
      { 'default-src': ["'self'", 'https://a.example'] },
      { directive: 'font-src', source: 'https://fonts.gstatic.com' },
    );
    expect(state.customRules).toEqual({
      'font-src': ["'self'", 'https://a.example', 'https://fonts.gstatic.com'],
    });
  });
});

describe('directives named like what every object inherits (a report can name any)', () => {
  const KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'] as const;
  const composed = { 'default-src': ["'self'"], 'script-src': ["'self'"] };

  it.each(KEYS)('%s: open, ignored, accepted and un-ignored as its own key', (key) => {
    const s = { directive: key, source: 'https://x.example' };
    const empty = { customRules: {}, ignoredSuggestions: {} };
    expect(suggestionStatus(empty, composed, s)).toBe('open');
    const ignored = ignoreSuggestion(empty, s);
    expect(Object.hasOwn(ignored.ignoredSuggestions, key)).toBe(true);
    expect(Object.getPrototypeOf(ignored.ignoredSuggestions)).toBeNull();
    expect(suggestionStatus(ignored, composed, s)).toBe('ignored');
    // Into the directive as reports group it (lower-cased, as browsers write directives).
    const target = key.toLowerCase();
    const accepted = acceptSuggestion(ignored, composed, s);
    expect(JSON.parse(JSON.stringify(accepted))).toEqual(
      JSON.parse(`{"customRules": {"${target}": ["https://x.example"]}, "ignoredSuggestions": {}}`),
    );
    expect(suggestionStatus(accepted, composed, s)).toBe('accepted');
    expect(Object.keys(removeCustomRule(accepted.customRules, target, 'https://x.example'))).toEqual([]);
    expect(unignoreSuggestion(ignored, s).ignoredSuggestions).toEqual({});
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it.each(KEYS)('%s: a suggestion the API would refuse to save is not savable', (key) => {
    expect(isSuggestionSavable(composed, { directive: key, source: 'https://x.example' })).toBe(false);
    // As reports group them (lower-cased), the camel-case ones are ordinary custom names.
    const grouped = isSuggestionSavable(composed, { directive: key.toLowerCase(), source: 'x' });
    expect(grouped).toBe(key === 'toString' || key === 'hasOwnProperty');
    expect(isSuggestionSavable(composed, { directive: 'script-src-elem', source: 'x' })).toBe(true);
  });

  it.each(KEYS)('%s is not a directive a custom rule can be added to', (key) => {
    expect(addCustomRule({}, key, 'https://x.example')).toEqual({
      customRules: {},
      added: null,
      error: 'Choose a directive',
    });
  });
});
