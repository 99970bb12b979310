import { describe, expect, it } from 'vitest';
import type { CrawlArtifact } from '../artifact';
import { auditPolicy } from '../audit';
import { generatePolicy } from '../generate';
import { allowsObservation } from '../match';
import type { CspRules } from '../policy';
import { withEngineFallbacks, writeFallback } from './fallbacks';
import { featuresUsed, policyEngines } from './policy-engines';
import { compareVersions, ENGINE_FEATURES, ENGINE_TABLE, ENGINES } from './table';

const SITE = 'https://site.example';
const H1 = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

describe('engine table', () => {
  it('every row has a version or null for every engine, and a source', () => {
    for (const feature of ENGINE_FEATURES) {
      const row = ENGINE_TABLE[feature];
      expect(row.source, feature).toMatch(/browser-compat-data|https:\/\//);
      for (const engine of ENGINES) {
        const v = row.since[engine];
        if (v !== null) expect(v, `${feature} ${engine}`).toMatch(/^\d+(\.\d+)*$/);
      }
    }
  });

  it('records the facts the generator relies on', () => {
    // Chromium exempts the default favicon; Firefox checks it against img-src.
    expect(ENGINE_TABLE['favicon-img-src'].since.chromium).toBeNull();
    expect(ENGINE_TABLE['favicon-img-src'].since.firefox).not.toBeNull();
    // Safari parsed style-src-elem from 15.4 but honoured it only from 26.2.
    expect(ENGINE_TABLE['style-src-elem'].since.safari).toBe('26.2');
    expect(ENGINE_TABLE['script-src-elem'].since.safari).toBe('15.4');
    // Firefox shipped -attr one version before 'unsafe-hashes': no -attr fallback can help it.
    expect(ENGINE_TABLE['script-src-attr'].since.firefox).toBe('108');
    expect(ENGINE_TABLE['unsafe-hashes'].since.firefox).toBe('109');
  });

  it('compares versions numerically', () => {
    expect(compareVersions('15.4', '15.10')).toBeLessThan(0);
    expect(compareVersions('26.2', '26')).toBeGreaterThan(0);
    expect(compareVersions('109', '109.0')).toBe(0);
    expect(compareVersions('9', '10')).toBeLessThan(0);
  });
});

describe('policyEngines', () => {
  const base: CspRules = {
    'default-src': ["'none'"],
    'script-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
  };

  it('a plain policy needs only the CSP Level 2 baseline', () => {
    expect(featuresUsed(base)).toEqual([]);
    expect(policyEngines(base).map((e) => `${e.name} ${e.minVersion}`)).toEqual([
      'Chromium 40',
      'Firefox 36',
      'Safari 10',
    ]);
  });

  it('attribute hashes need -attr and unsafe-hashes: Firefox 109, Safari 15.4', () => {
    const rules = { ...base, 'script-src-attr': ["'unsafe-hashes'", `'${H1}'`] };
    expect(featuresUsed(rules)).toEqual(['script-src-attr', 'unsafe-hashes']);
    const engines = policyEngines(rules);
    expect(engines.find((e) => e.engine === 'firefox')).toMatchObject({
      minVersion: '109',
      because: ['unsafe-hashes', 'script-src-attr'],
    });
    expect(engines.find((e) => e.engine === 'safari')?.minVersion).toBe('15.4');
    expect(engines.find((e) => e.engine === 'chromium')?.minVersion).toBe('75');
  });

  it("script-src-attr 'none' costs nothing: an engine ignoring it reads script-src, which allows no handler", () => {
    expect(featuresUsed({ ...base, 'script-src-attr': ["'none'"] })).toEqual([]);
  });

  it('style-src-elem with sources style-src lacks needs Safari 26.2; with the fallback written, nothing', () => {
    const rules = { ...base, 'style-src': ["'self'"], 'style-src-elem': ["'self'", 'https://cdn.example'] };
    expect(policyEngines(rules).find((e) => e.engine === 'safari')?.minVersion).toBe('26.2');
    expect(featuresUsed(withEngineFallbacks(rules))).toEqual([]);
  });

  it("'wasm-unsafe-eval' counts unless 'unsafe-eval' is there too; 'strict-dynamic' only without its fallback", () => {
    expect(featuresUsed({ ...base, 'script-src': ["'self'", "'wasm-unsafe-eval'"] })).toEqual([
      'wasm-unsafe-eval',
    ]);
    expect(featuresUsed({ ...base, 'script-src': ["'unsafe-eval'", "'wasm-unsafe-eval'"] })).toEqual([]);
    expect(
      featuresUsed({ ...base, 'script-src': ["'nonce-abcdefabcdefabcdef'", "'strict-dynamic'"] }),
    ).toEqual(['strict-dynamic']);
    expect(
      featuresUsed({
        ...base,
        'script-src': ["'nonce-abcdefabcdefabcdef'", "'strict-dynamic'", "'unsafe-inline'", 'https:'],
      }),
    ).toEqual([]);
  });
});

describe('engine fallbacks', () => {
  it('script-src-elem sources are written into script-src; handlers and workers keep what they had', () => {
    const rules: CspRules = {
      'default-src': ["'none'"],
      'script-src': ["'self'"],
      'script-src-elem': ["'self'", 'https://cdn.example', `'${H1}'`],
    };
    const out = withEngineFallbacks(rules);
    expect(out['script-src']).toEqual(["'self'", `'${H1}'`, 'https://cdn.example']);
    // A CSP3 engine read script-src for handlers and workers before: they are pinned to it.
    expect(out['script-src-attr']).toEqual(["'self'"]);
    expect(out['worker-src']).toEqual(["'self'"]);
    expect(out['script-src-elem']).toEqual(rules['script-src-elem']);
    // The pinned worker-src then gets its own fallback for Safari < 15.5 (child-src, frames pinned).
    expect(out['child-src']).toEqual(["'self'"]);
    expect(out['frame-src']).toEqual(["'none'"]);
    // Keys come out in directive table order.
    expect(Object.keys(out)).toEqual([
      'default-src',
      'script-src',
      'script-src-elem',
      'script-src-attr',
      'frame-src',
      'child-src',
      'worker-src',
    ]);
  });

  it("an honoured 'unsafe-inline' in style-src-elem is written without the hashes that would switch it off", () => {
    const rules: CspRules = {
      'default-src': ["'none'"],
      'style-src': ["'self'", `'${H1}'`],
      'style-src-elem': ["'self'", "'unsafe-inline'"],
      'style-src-attr': ["'unsafe-hashes'", `'${H1}'`],
    };
    const out = withEngineFallbacks(rules);
    expect(out['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    // style-src-attr was set: untouched.
    expect(out['style-src-attr']).toEqual(rules['style-src-attr']);
  });

  it('worker-src is written into child-src, and frames keep reading what they read before', () => {
    const rules: CspRules = { 'default-src': ["'none'"], 'worker-src': ["'self'", 'blob:'] };
    const out = withEngineFallbacks(rules);
    expect(out['child-src']).toEqual(["'self'", 'blob:']);
    expect(out['frame-src']).toEqual(["'none'"]);
  });

  it('changes nothing when the fallback already holds the sources, and never carries eval keywords', () => {
    const rules: CspRules = { 'script-src': ["'self'"], 'script-src-elem': ["'self'", "'unsafe-eval'"] };
    expect(withEngineFallbacks(rules)).toBe(rules);
    expect(writeFallback({ 'script-src-elem': ["'none'"] }, 'script-src-elem', 'script-src')).toEqual({
      'script-src-elem': ["'none'"],
    });
  });
});

describe('generatePolicy: favicons', () => {
  const artifact = (favicons: CrawlArtifact['favicons']): CrawlArtifact => ({
    origin: SITE,
    pages: [
      {
        url: `${SITE}/`,
        finalUrl: `${SITE}/`,
        status: 200,
        observations: [
          { type: 'url', directive: 'script-src-elem', url: `${SITE}/app.js`, page: `${SITE}/` },
        ],
      },
    ],
    errors: [],
    ...(favicons ? { favicons } : {}),
  });
  const favicon = (url: string, status = 200) => ({ url, status, from: 'link' as const });

  it("a served /favicon.ico puts 'self' in img-src, explained", () => {
    const policy = generatePolicy(artifact([{ url: `${SITE}/favicon.ico`, status: 200, from: 'default' }]));
    expect(policy.rules['img-src']).toEqual(["'self'"]);
    expect(policy.findings.find((f) => f.code === 'favicon-allowed')?.value).toBe("'self'");
    expect(
      allowsObservation(
        policy.rules,
        { type: 'url', directive: 'img-src', url: `${SITE}/favicon.ico`, page: `${SITE}/` },
        SITE,
      ),
    ).toBe(true);
  });

  it('a favicon on another origin gets that origin, upgraded on an https site', () => {
    const policy = generatePolicy(artifact([favicon('http://static.example/icon.png')]));
    expect(policy.rules['img-src']).toEqual(['https://static.example']);
  });

  it('a favicon the site does not serve, or no favicon check at all, adds nothing', () => {
    expect(generatePolicy(artifact([favicon(`${SITE}/favicon.ico`, 404)])).rules['img-src']).toBeUndefined();
    expect(generatePolicy(artifact([favicon(`${SITE}/favicon.ico`, 0)])).rules['img-src']).toBeUndefined();
    const old = generatePolicy(artifact(undefined));
    expect(old.rules['img-src']).toBeUndefined();
    expect(old.findings.some((f) => f.code === 'favicon-allowed')).toBe(false);
  });

  it('the favicon joins the images the crawl saw, once', () => {
    const a = artifact([favicon(`${SITE}/icon.svg`)]);
    a.pages[0]!.observations.push({
      type: 'url',
      directive: 'img-src',
      url: `${SITE}/logo.png`,
      page: `${SITE}/`,
    });
    expect(generatePolicy(a).rules['img-src']).toEqual(["'self'"]);
  });
});

describe('the audit reads the table', () => {
  it('report-to alone names the engine versions that still need report-uri', () => {
    const audit = auditPolicy({ 'default-src': ["'self'"], 'report-to': ['csp'] });
    const finding = audit.findings.find((f) => f.code === 'report-to-only');
    expect(finding?.description).toContain('Chromium before 70, Firefox before 149, Safari before 16.4');
  });
});
