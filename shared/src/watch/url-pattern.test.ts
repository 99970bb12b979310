import { describe, expect, it } from 'vitest';
import { matchesUrlPattern } from './url-pattern';

describe('matchesUrlPattern', () => {
  it('lets * stand for any run of characters and nothing else be special', () => {
    const bundle = 'https://cdn.example.com/app/bundle.*.js';
    expect(matchesUrlPattern(bundle, 'https://cdn.example.com/app/bundle.3f2a9c.js')).toBe(true);
    expect(matchesUrlPattern(bundle, 'https://cdn.example.com/app/bundle..js')).toBe(true);
    expect(matchesUrlPattern(bundle, 'https://cdn.example.com/app/bundle.3f2a9c.css')).toBe(false);
    expect(matchesUrlPattern(bundle, 'https://cdn.example.com.evil.test/app/bundle.1.js')).toBe(false);
    expect(matchesUrlPattern('https://a.test/x?.js', 'https://a.test/xy.js')).toBe(false);
    expect(matchesUrlPattern('https://a.test/[a].js', 'https://a.test/[a].js')).toBe(true);
    expect(matchesUrlPattern('*', 'https://anything.test/')).toBe(true);
    expect(matchesUrlPattern('https://a.test/*', 'https://a.test/')).toBe(true);
    expect(matchesUrlPattern('https://a.test/*/*.js', 'https://a.test/v1/lib.js')).toBe(true);
  });

  it('stays fast on patterns made to backtrack', () => {
    const pattern = `${'*a'.repeat(500)}b`;
    const url = 'a'.repeat(2000);
    const start = performance.now();
    expect(matchesUrlPattern(pattern, url)).toBe(false);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
