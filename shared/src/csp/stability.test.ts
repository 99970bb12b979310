// Stability: inline code whose hash changes between two loads is marked unstable on every page of that
// shape; code that only went missing stays stable; the generator gives unstable styles 'unsafe-inline' and
// never unstable scripts.
import { describe, expect, it } from 'vitest';
import type { Observation, Rerender } from './artifact';
import { artifactOfPages } from './artifact-factory';
import { generatePolicy } from './generate';
import { markUnstableInline, normalizeInlineShape } from './stability';

const origin = 'https://site.example';
type Inline = Extract<Observation, { type: 'inline' }>;
const inline = (
  directive: Inline['directive'],
  hash: string,
  shape: string,
  page = `${origin}/a`,
): Inline => ({
  type: 'inline',
  directive,
  hash: `sha256-${hash.padEnd(43, 'A')}=`,
  shape,
  sample: hash,
  page,
});
const artifactOf = (pages: Record<string, Observation[]>) => artifactOfPages(origin, pages);

const rerenderOf = (page: string, items: Inline[]): Rerender => ({
  page: `${origin}${page}`,
  inline: items.map(({ directive, hash, shape, sample }) => ({ directive, hash, shape, sample })),
});

describe('normalizeInlineShape', () => {
  it('makes code that differs only in values equal, and other code not', () => {
    expect(normalizeInlineShape('top:114px;height:19px')).toBe(normalizeInlineShape('top:7px;height:23px'));
    expect(normalizeInlineShape('var t = "a8f9c0d1e2";')).toBe(normalizeInlineShape('var t = "77bb3c";'));
    expect(normalizeInlineShape('color: red')).not.toBe(normalizeInlineShape('color: blue'));
  });
});

describe('markUnstableInline', () => {
  it('marks code whose hash changed with the same shape, on every page of that shape', () => {
    const token = (v: string, page: string) => inline('script-src-elem', v, 'TOKEN', `${origin}${page}`);
    const stable = inline('script-src-elem', 'stable', 'STABLE');
    const artifact = artifactOf({ '/a': [token('one', '/a'), stable], '/b': [token('two', '/b')] });
    const { artifact: marked, unstable } = markUnstableInline(artifact, [
      rerenderOf('/a', [token('three', '/a'), stable]),
    ]);
    const flags = marked.pages.map((p) =>
      p.observations.map((o) => (o.type === 'inline' ? Boolean(o.unstable) : null)),
    );
    // /b was not re-rendered: its token script has the same shape, so it is unstable too.
    expect(flags).toEqual([[true, false], [true]]);
    expect(unstable).toEqual([
      { directive: 'script-src-elem', page: `${origin}/a`, sample: 'one', pages: 2 },
    ]);
  });

  it('pairs leftovers of one directive in order, and leaves code that only went missing stable', () => {
    const artifact = artifactOf({
      '/a': [inline('style-src-attr', 'x1', 'X1'), inline('script-src-elem', 'late', 'LATE')],
    });
    const { artifact: marked } = markUnstableInline(artifact, [
      rerenderOf('/a', [inline('style-src-attr', 'y1', 'Y1')]),
    ]);
    const [style, script] = marked.pages[0]!.observations as Inline[];
    expect(style!.unstable).toBe(true);
    expect(script!.unstable).toBeUndefined();
  });

  it('changes nothing without re-renders or when every hash came back', () => {
    const artifact = artifactOf({ '/a': [inline('script-src-elem', 's', 'S')] });
    expect(markUnstableInline(artifact, []).artifact).toBe(artifact);
    expect(
      markUnstableInline(artifact, [rerenderOf('/a', [inline('script-src-elem', 's', 'S')])]).unstable,
    ).toEqual([]);
  });
});

describe('generatePolicy with unstable inline code', () => {
  const artifact = artifactOf({
    '/editor': [
      { ...inline('style-src-attr', 'top1', 'TOP', `${origin}/editor`), unstable: true },
      { ...inline('style-src-elem', 'line1', 'LINE', `${origin}/editor`), unstable: true },
      inline('style-src-elem', 'fixed', 'FIXED', `${origin}/editor`),
      {
        type: 'url',
        directive: 'style-src-elem',
        url: 'https://cdn.example/a.css',
        page: `${origin}/editor`,
      },
      { ...inline('script-src-elem', 'csrf1', 'CSRF', `${origin}/editor`), unstable: true },
      { ...inline('script-src-attr', 'onchange1', 'ONCHANGE', `${origin}/editor`), unstable: true },
      inline('script-src-elem', 'app', 'APP', `${origin}/editor`),
    ],
  });

  it("allowlist: unstable styles get 'unsafe-inline' without hashes; unstable scripts are never allowed", () => {
    const { rules, findings } = generatePolicy(artifact);
    expect(rules['style-src-attr']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    expect(rules['style-src']).toContain("'unsafe-inline'");
    expect(rules['style-src']).toContain('https://cdn.example');
    expect(rules['style-src']!.some((s) => s.startsWith("'sha"))).toBe(false);
    expect(rules['script-src']).not.toContain("'unsafe-inline'");
    expect(rules['script-src']!.filter((s) => s.startsWith("'sha"))).toEqual([
      `'${inline('script-src-elem', 'app', '').hash}'`,
    ]);
    expect(rules['script-src-attr']).toBeUndefined();
    const codes = findings.map((f) => `${f.severity} ${f.code}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'low unstable-inline-style',
        'high unstable-inline-script',
        'high unstable-inline-handler',
      ]),
    );
    const script = findings.find((f) => f.code === 'unstable-inline-script')!;
    expect(script.description).toContain(`on ${origin}/editor`);
    expect(script.description).toContain('nonce');
  });

  it('strict: the nonce covers unstable scripts (not hashed), with an info finding', () => {
    const { rules, findings } = generatePolicy(artifact, { mode: 'strict', nonce: 'abcdefghijklmnop0123' });
    expect(rules['script-src']!.filter((s) => s.startsWith("'sha"))).toHaveLength(1);
    expect(findings.some((f) => f.code === 'unstable-inline-nonce')).toBe(true);
  });
});
