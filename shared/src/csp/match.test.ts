// The matcher is what the generator's coverage property relies on, so it must itself say "blocked" when a
// browser would block.
import { describe, expect, it } from 'vitest';
import type { Observation } from './artifact';
import { allowsObservation, sourceMatchesUrl } from './match';

const SELF = 'https://site.example';
const page = `${SELF}/`;
const img = (url: string): Observation => ({ type: 'url', directive: 'img-src', url, page });
const H = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

describe('sourceMatchesUrl', () => {
  const m = (source: string, url: string, self = SELF) => sourceMatchesUrl(source, new URL(url), self);

  it("'self' matches the page origin and its secure upgrade only", () => {
    expect(m("'self'", 'https://site.example/a')).toBe(true);
    expect(m("'self'", 'https://site.example:8443/a')).toBe(false);
    expect(m("'self'", 'https://www.site.example/a')).toBe(false);
    expect(m("'self'", 'https://site.example/a', 'http://site.example')).toBe(true);
    expect(m("'self'", 'http://site.example/a')).toBe(false);
  });

  it('exact origins match their scheme (and its upgrade), host and port', () => {
    expect(m('https://cdn.example', 'https://cdn.example/x/y')).toBe(true);
    expect(m('https://cdn.example', 'https://cdn.example:8443/x')).toBe(false);
    expect(m('https://cdn.example:8443', 'https://cdn.example:8443/x')).toBe(true);
    expect(m('https://cdn.example', 'http://cdn.example/x')).toBe(false);
    expect(m('http://cdn.example', 'https://cdn.example/x')).toBe(true);
    expect(m('https://cdn.example', 'https://evil-cdn.example/x')).toBe(false);
  });

  it('wildcards, bare hosts, paths and schemes', () => {
    expect(m('*.cdn.example', 'https://a.cdn.example/x')).toBe(true);
    expect(m('*.cdn.example', 'https://cdn.example/x')).toBe(false);
    expect(m('https://cdn.example/lib/', 'https://cdn.example/lib/a.js')).toBe(true);
    expect(m('https://cdn.example/lib/a.js', 'https://cdn.example/lib/b.js')).toBe(false);
    expect(m('*', 'data:,x')).toBe(false);
    expect(m('data:', 'data:,x')).toBe(true);
    expect(m('https:', 'https://anything.example')).toBe(true);
  });
});

describe('allowsObservation', () => {
  it('follows fallbacks: img-src absent → default-src', () => {
    expect(allowsObservation({ 'default-src': ["'none'"] }, img('https://a.example/x'), SELF)).toBe(false);
    expect(
      allowsObservation({ 'default-src': ['https://a.example'] }, img('https://a.example/x'), SELF),
    ).toBe(true);
    expect(allowsObservation({ 'script-src': ["'none'"] }, img('https://a.example/x'), SELF)).toBe(true);
  });

  it('upgrade-insecure-requests rewrites http: before matching', () => {
    const rules = { 'img-src': ['https://a.example'] };
    expect(allowsObservation(rules, img('http://a.example/x'), SELF)).toBe(false);
    expect(
      allowsObservation({ ...rules, 'upgrade-insecure-requests': [] }, img('http://a.example/x'), SELF),
    ).toBe(true);
  });

  it("attribute hashes need 'unsafe-hashes'; element hashes do not", () => {
    const attr: Observation = { type: 'inline', directive: 'script-src-attr', hash: H, page };
    const elem: Observation = { type: 'inline', directive: 'script-src-elem', hash: H, page };
    expect(allowsObservation({ 'script-src': [`'${H}'`] }, attr, SELF)).toBe(false);
    expect(allowsObservation({ 'script-src': [`'${H}'`] }, elem, SELF)).toBe(true);
    expect(allowsObservation({ 'script-src-attr': ["'unsafe-hashes'", `'${H}'`] }, attr, SELF)).toBe(true);
    // 'unsafe-inline' beside a hash is ignored
    expect(allowsObservation({ 'script-src': ["'unsafe-inline'", "'sha256-other='"] }, elem, SELF)).toBe(
      false,
    );
  });

  it("javascript: URLs are checked against script-src-elem and need 'unsafe-hashes'", () => {
    const jsUrl: Observation = {
      type: 'inline',
      directive: 'script-src-elem',
      hash: H,
      kind: 'javascript-url',
      page,
    };
    expect(allowsObservation({ 'script-src': [`'${H}'`] }, jsUrl, SELF)).toBe(false);
    expect(allowsObservation({ 'script-src': ["'unsafe-hashes'", `'${H}'`] }, jsUrl, SELF)).toBe(true);
    // script-src-attr is not consulted for them
    expect(
      allowsObservation(
        { 'script-src-attr': ["'unsafe-hashes'", `'${H}'`], 'script-src': ["'self'"] },
        jsUrl,
        SELF,
      ),
    ).toBe(false);
  });

  it("under 'strict-dynamic' host sources do not allow script URLs", () => {
    const script: Observation = {
      type: 'url',
      directive: 'script-src-elem',
      url: 'https://cdn.example/a.js',
      page,
    };
    expect(allowsObservation({ 'script-src': ['https://cdn.example'] }, script, SELF)).toBe(true);
    expect(
      allowsObservation({ 'script-src': ["'strict-dynamic'", 'https://cdn.example'] }, script, SELF),
    ).toBe(false);
  });

  it("eval needs 'unsafe-eval' in script-src; WebAssembly accepts 'wasm-unsafe-eval' too", () => {
    const ev: Observation = { type: 'eval', page };
    const wasm: Observation = { type: 'wasm-eval', page };
    expect(allowsObservation({ 'script-src': ["'self'"] }, ev, SELF)).toBe(false);
    expect(allowsObservation({ 'script-src': ["'unsafe-eval'"] }, ev, SELF)).toBe(true);
    expect(allowsObservation({ 'script-src': ["'wasm-unsafe-eval'"] }, wasm, SELF)).toBe(true);
    expect(allowsObservation({ 'script-src': ["'wasm-unsafe-eval'"] }, ev, SELF)).toBe(false);
  });
});
