import { describe, expect, it } from 'vitest';
import { isSameOrigin, looksLikePage, normalizeUrl } from './url-normalize';

describe('normalizeUrl', () => {
  it.each([
    ['https://Example.COM/a/#frag', 'https://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/', 'http://example.com/'],
    ['http://example.com:8080/a/', 'http://example.com:8080/a'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/a?b=2&a=1#x', 'https://example.com/a?b=2&a=1'],
    ['https://example.com/A/B', 'https://example.com/A/B'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeUrl(input)).toBe(expected);
  });

  it('resolves relative links against the page', () => {
    expect(normalizeUrl('../c/', 'https://example.com/a/b/')).toBe('https://example.com/a/c');
  });

  it.each([
    'mailto:a@b.c',
    'javascript:void(0)',
    'file:///etc/passwd',
    'data:text/html,x',
    'ftp://x/',
    'not a url',
    'https://user:pw@example.com/',
  ])('refuses %s', (input) => {
    expect(normalizeUrl(input)).toBeNull();
  });

  it('same site means same origin (www. and other subdomains are other sites)', () => {
    expect(isSameOrigin('https://example.com/x', 'https://example.com')).toBe(true);
    expect(isSameOrigin('https://www.example.com/x', 'https://example.com')).toBe(false);
    expect(isSameOrigin('http://example.com/x', 'https://example.com')).toBe(false);
    expect(isSameOrigin('https://example.com:8443/x', 'https://example.com')).toBe(false);
  });

  it('skips downloads and assets', () => {
    expect(looksLikePage('https://e.com/report.PDF')).toBe(false);
    expect(looksLikePage('https://e.com/app.js')).toBe(false);
    expect(looksLikePage('https://e.com/page.html')).toBe(true);
    expect(looksLikePage('https://e.com/docs/')).toBe(true);
  });
});
