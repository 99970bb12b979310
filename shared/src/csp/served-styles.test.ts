// Inline styles a script wrote: what the server's HTML holds (read as the parser reads it), and what the
// generator makes of styles that are not in it — 'unsafe-inline' for their directive, hashes dropped there
// and kept in the other, a finding saying which, where and why; scripts never.
import { describe, expect, it } from 'vitest';
import type { Observation } from './artifact';
import { artifactOfPages } from './artifact-factory';
import { generatePolicy } from './generate';
import { decodeAttributeValue, isServedStyle, servedStyles } from './served-styles';

const origin = 'https://site.example';
type Inline = Extract<Observation, { type: 'inline' }>;
const inline = (directive: Inline['directive'], name: string, over: Partial<Inline> = {}): Inline => ({
  type: 'inline',
  directive,
  hash: `sha256-${name.padEnd(43, 'A')}=`,
  shape: name,
  sample: name,
  page: `${origin}/editor`,
  ...over,
});

describe('servedStyles', () => {
  it('reads <style> text raw and style= values decoded, as the parser gives them to the page', () => {
    const served = servedStyles(
      `<html><head><STYLE media="all">.a { content: "&amp;" }\r\n.b{}</STYLE><style></style></head>
<body><div id=x style="left:0px;width:8.43359375px">1</div><p class='c' style='font: 12px &quot;Mono&quot;'>
<span style=color:red>t</span><i data-x="1" style="a&#x3A;b&#58;c"></i></body></html>`,
    );
    expect([...served.elements]).toEqual(['.a { content: "&amp;" }\n.b{}', '']);
    expect([...served.attributes]).toEqual([
      'left:0px;width:8.43359375px',
      'font: 12px "Mono"',
      'color:red',
      'a:b:c',
    ]);
    expect(isServedStyle(served, 'style-src-attr', 'color:red')).toBe(true);
    expect(isServedStyle(served, 'style-src-attr', 'left:0px;width:8.4px')).toBe(false);
    expect(isServedStyle(served, 'style-src-elem', 'color:red')).toBe(false);
  });

  it('a data-style attribute is not a style attribute; unknown or invalid references stay safe', () => {
    expect([...servedStyles('<div data-style="x:1">').attributes]).toEqual([]);
    expect(decodeAttributeValue('a&bogus;b&#0;c&lt;')).toBe('a&bogus;b\ufffdc<');
  });
});

describe('generatePolicy: styles a script wrote', () => {
  const served = inline('style-src-elem', 'served');
  const servedAttr = inline('style-src-attr', 'servedattr');
  const written = inline('style-src-elem', 'icons', { inserted: true, interaction: true });
  const measured = inline('style-src-attr', 'measured', { inserted: true });
  const script = inline('script-src-elem', 'script', { inserted: true });

  it("an inserted <style> gives style-src 'unsafe-inline' without hashes; style= hashes stay", () => {
    const { rules, findings } = generatePolicy(
      artifactOfPages(origin, { '/editor': [served, servedAttr, written, script] }),
    );
    expect(rules['style-src']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    expect([...rules['style-src-attr']!].sort()).toEqual(
      ["'unsafe-hashes'", `'${servedAttr.hash}'`, "'report-sample'"].sort(),
    );
    // A script a script inserted is hashed as ever.
    expect(rules['script-src']).toContain(`'${script.hash}'`);
    expect(rules['script-src']).not.toContain("'unsafe-inline'");
    const finding = findings.find((f) => f.code === 'unstable-inline-style')!;
    expect(finding).toMatchObject({ severity: 'low', directive: 'style-src', value: "'unsafe-inline'" });
    expect(finding.description).toContain("1 written by a script (not in the server's HTML)");
    expect(finding.description).toContain(`"icons" (written by a script) on ${origin}/editor`);
  });

  it("an inserted style= gives style-src-attr 'unsafe-inline' alone; <style> hashes stay", () => {
    const { rules, findings } = generatePolicy(
      artifactOfPages(origin, { '/editor': [served, servedAttr, measured] }),
    );
    expect([...rules['style-src']!].sort()).toEqual([`'${served.hash}'`, "'report-sample'"].sort());
    expect(rules['style-src-attr']).toEqual(["'unsafe-inline'", "'report-sample'"]);
    const finding = findings.find((f) => f.code === 'unstable-inline-style')!;
    expect(finding.directive).toBe('style-src-attr');
  });

  it('styles in the server HTML keep their hashes: no unsafe-inline anywhere', () => {
    const { rules, findings } = generatePolicy(artifactOfPages(origin, { '/editor': [served, servedAttr] }));
    expect(Object.values(rules).flat()).not.toContain("'unsafe-inline'");
    expect(findings.some((f) => f.code === 'unstable-inline-style')).toBe(false);
  });

  it('a style both written by a script and changed on reload gives both reasons', () => {
    const both = inline('style-src-attr', 'both', { inserted: true, unstable: true });
    const { findings } = generatePolicy(artifactOfPages(origin, { '/editor': [both] }));
    const text = findings.find((f) => f.code === 'unstable-inline-style')!.description;
    expect(text).toContain('1 written by a script');
    expect(text).toContain('1 different when the page was loaded again');
  });
});
