import { describe, expect, it } from 'vitest';
import { authorityPrefix, hashSource, originOf, schemeOf } from './source';

describe('originOf', () => {
  it.each([
    ['https://cdn.example/a/b.js?x#y', 'https://cdn.example'],
    ['HTTPS://CDN.Example:443/x', 'https://cdn.example'],
    ['https://cdn.example:8443/x', 'https://cdn.example:8443'],
    ['wss://live.example:443/socket', 'wss://live.example'],
    ['http://127.0.0.1:3000/x', 'http://127.0.0.1:3000'],
    ['https://münchen.example/', 'https://xn--mnchen-3ya.example'],
    ['https://user:pw@creds.example/', 'https://creds.example'],
  ])('%s → %s', (url, origin) => {
    expect(originOf(url, false)).toMatchObject({ kind: 'source', source: origin });
  });

  it('upgrades http: and ws: (port 80 included) when the policy upgrades insecure requests', () => {
    expect(originOf('http://a.example/x', true)).toEqual({
      kind: 'source',
      source: 'https://a.example',
      origin: 'https://a.example',
      upgraded: true,
    });
    expect(originOf('ws://a.example:80/x', true)).toMatchObject({ source: 'wss://a.example' });
    expect(originOf('http://a.example:8080/x', true)).toMatchObject({ source: 'https://a.example:8080' });
    expect(originOf('http://a.example/x', false)).toMatchObject({
      source: 'http://a.example',
      upgraded: false,
    });
  });

  it('data: and blob: become scheme sources', () => {
    expect(originOf('data:image/png;base64,AAAA', false)).toEqual({ kind: 'source', source: 'data:' });
    expect(originOf('blob:https://a.example/uuid', false)).toEqual({ kind: 'source', source: 'blob:' });
  });

  it.each([
    ['https://a;b.example/x'],
    ['https://a,b.example/x'],
    ['https://a"b.example/x'],
    ['https://a_b.example/x'],
    ['https://[::1]:8080/x'],
    ['not a url'],
  ])('refuses %s: its host cannot be written as a CSP host source', (url) => {
    expect(originOf(url, false).kind).toBe('unrepresentable');
  });

  it('other schemes are ignored, not turned into sources', () => {
    expect(originOf('mailto:a@b.example', false)).toEqual({ kind: 'ignored', scheme: 'mailto:' });
    expect(originOf('about:blank', false)).toEqual({ kind: 'ignored', scheme: 'about:' });
  });
});

describe('authorityPrefix (origin cache key)', () => {
  it.each([
    'https://a.example/path//x',
    'https://a.example?q=//b.example/',
    'https://a.example#//b.example/',
    'https://a.example\\evil.example/x',
    'https://user:pw@a.example:8443/x',
    'HTTPS://A.EXAMPLE',
    'https:a.example/x//y',
    'https:\\\\a.example\\x',
    'blob:https://a.example/uuid',
    'wss://a.example:443/x',
  ])('%s: the prefix alone has the same origin as the whole URL', (url) => {
    const prefix = authorityPrefix(url) ?? url;
    expect(originOf(prefix, true)).toEqual(originOf(url, true));
    expect(originOf(prefix, false)).toEqual(originOf(url, false));
  });
});

describe('schemeOf and hashSource', () => {
  it('reads the scheme like the URL parser, lower-cased', () => {
    expect(schemeOf('https://a')).toBe('https:');
    expect(schemeOf('DATA:,x')).toBe('data:');
    expect(schemeOf(' javascript:void(0)')).toBe('javascript:');
    expect(schemeOf('/relative')).toBeUndefined();
  });

  it('quotes valid hashes and refuses anything else', () => {
    expect(hashSource('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=')).toBe(
      "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
    );
    expect(hashSource("sha256-abc'; script-src *")).toBeUndefined();
    expect(hashSource('md5-abc')).toBeUndefined();
  });
});
