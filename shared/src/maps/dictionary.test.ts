import { describe, expect, it } from 'vitest';
import { dictionary, firstInheritedKey, isInheritedName, ownValue } from './dictionary';

const KEYS = ['constructor', '__proto__', 'prototype', 'toString', 'hasOwnProperty'] as const;

describe('dictionary', () => {
  it('names every object answers to are inherited; directive names are not', () => {
    for (const key of KEYS) expect(isInheritedName(key), key).toBe(true);
    for (const name of ['script-src', 'sandbox', 'proto', 'constructors', 'tostring']) {
      expect(isInheritedName(name), name).toBe(false);
    }
  });

  it('holds every key as its own entry, __proto__ included, and inherits nothing', () => {
    const d = dictionary<string[]>();
    for (const key of KEYS) {
      expect(ownValue(d, key), key).toBeUndefined();
      expect(d[key], key).toBeUndefined();
      d[key] = [key];
    }
    expect(Object.getPrototypeOf(d)).toBeNull();
    expect(Object.keys(d)).toEqual([...KEYS]);
    expect(JSON.parse(JSON.stringify(d))).toEqual(Object.fromEntries(KEYS.map((k) => [k, [k]])));
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });

  it('copies a parsed map, own __proto__ key and all, without setting a prototype', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": ["yes"]}, "img-src": ["a"]}');
    const copy = dictionary<unknown>(parsed);
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.keys(copy)).toEqual(['__proto__', 'img-src']);
    expect(copy.polluted).toBeUndefined();
    expect(ownValue(copy, '__proto__')).toEqual({ polluted: ['yes'] });
  });

  it('reads own values only, from plain objects too', () => {
    const plain: Record<string, string[]> = { 'img-src': ['a'] };
    for (const key of KEYS) expect(ownValue(plain, key), key).toBeUndefined();
    expect(ownValue(plain, 'img-src')).toEqual(['a']);
  });

  it('finds an inherited name among the own keys of parsed JSON, where zod would drop __proto__', () => {
    expect(firstInheritedKey(JSON.parse('{"img-src": [], "__proto__": []}'))).toBe('__proto__');
    expect(firstInheritedKey({ constructor: [] })).toBe('constructor');
    expect(firstInheritedKey({ 'img-src': [] })).toBeUndefined();
    expect(firstInheritedKey(['constructor'])).toBeUndefined();
    expect(firstInheritedKey('constructor')).toBeUndefined();
  });
});
