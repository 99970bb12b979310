import { describe, expect, it } from 'vitest';
import type { CrawlArtifact, Observation, ObservedDirective } from './artifact';
import { fakeSha256, seededRandom, syntheticArtifact } from './artifact-factory';
import { auditPolicy } from './audit';
import { isHostSource, isSchemeSource } from './directives';
import type { PolicyFinding } from './finding';
import { type GeneratedPolicy, generatePolicy, NONCE_PLACEHOLDER, type PolicyMode } from './generate';
import { allowsObservation } from './match';
import { serializePolicy } from './serialize';

const SITE = 'https://site.example';
const H1 = 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
const H2 = 'sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB=';
const NONCE = '0123456789abcdef0123456789abcdef';

type Obs = Observation extends infer O
  ? O extends Observation
    ? Omit<O, 'page'> & { page?: string }
    : never
  : never;

function crawl(observations: Obs[], origin = SITE): CrawlArtifact {
  const page = `${origin}/`;
  return {
    origin,
    pages: [
      {
        url: page,
        finalUrl: page,
        status: 200,
        observations: observations.map((o) => ({ page, ...o }) as Observation),
      },
    ],
    errors: [],
  };
}
const url = (directive: ObservedDirective, href: string): Obs => ({ type: 'url', directive, url: href });
const inline = (
  directive: 'script-src-elem' | 'script-src-attr' | 'style-src-elem' | 'style-src-attr',
  hash: string,
): Obs => ({
  type: 'inline',
  directive,
  hash,
});
const codes = (p: { findings: PolicyFinding[] }) => p.findings.map((f) => f.code);
const audited = (p: GeneratedPolicy) => auditPolicy(p.rules, { generatorFindings: p.findings });

const HARDENING_ALLOWLIST = {
  'default-src': ["'none'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
  'upgrade-insecure-requests': [],
};

describe('generatePolicy: hardening defaults', () => {
  it('an https crawl with nothing observed gets only the hardening directives, flagged', () => {
    const policy = generatePolicy(crawl([]));
    expect(policy.rules).toEqual(HARDENING_ALLOWLIST);
    expect(codes(policy)).toContain('nothing-observed');
  });

  it('http sites get no upgrade-insecure-requests', () => {
    const { rules } = generatePolicy(
      crawl([url('img-src', 'http://site.example/a.png')], 'http://site.example'),
    );
    expect(rules['upgrade-insecure-requests']).toBeUndefined();
    expect(rules['img-src']).toEqual(["'self'"]);
  });

  it('strict mode: object-src and base-uri none, script-src with the placeholder nonce', () => {
    const { rules, findings } = generatePolicy(crawl([]), { mode: 'strict' });
    expect(rules['object-src']).toEqual(["'none'"]);
    expect(rules['base-uri']).toEqual(["'none'"]);
    expect(rules['script-src']).toContain(`'nonce-${NONCE_PLACEHOLDER}'`);
    expect(findings.find((f) => f.code === 'nonce-placeholder')?.severity).toBe('medium');
  });

  it('report-uri when asked, with ; and , percent-encoded so they cannot end the directive', () => {
    const { rules } = generatePolicy(crawl([]), {
      reportUri: 'https://csp.example/api/uri-report?domain=a;b,c',
    });
    expect(rules['report-uri']).toEqual(['https://csp.example/api/uri-report?domain=a%3Bb%2Cc']);
    expect(generatePolicy(crawl([]), { reportUri: '/api/uri-report?domain=x' }).rules['report-uri']).toEqual([
      '/api/uri-report?domain=x',
    ]);
    expect(() => generatePolicy(crawl([]), { reportUri: 'javascript:alert(1)' })).toThrow(/http/);
  });

  it('rejects an origin that is not http(s) and a malformed nonce', () => {
    expect(() => generatePolicy(crawl([], 'file:///etc'))).toThrow(/http/);
    expect(() => generatePolicy(crawl([]), { mode: 'strict', nonce: "abc' 'unsafe-eval" })).toThrow();
  });
});

// Every URL directive the crawler reports, where its sources land in the compact policy.
const URL_CASES: Array<[ObservedDirective, string]> = [
  ['script-src-elem', 'script-src'],
  ['script-src', 'script-src'],
  ['style-src-elem', 'style-src'],
  ['style-src', 'style-src'],
  ['img-src', 'img-src'],
  ['font-src', 'font-src'],
  ['media-src', 'media-src'],
  ['connect-src', 'connect-src'],
  ['frame-src', 'frame-src'],
  ['child-src', 'child-src'],
  ['worker-src', 'worker-src'],
  ['manifest-src', 'manifest-src'],
  ['object-src', 'object-src'],
  ['form-action', 'form-action'],
  ['base-uri', 'base-uri'],
  ['default-src', 'default-src'],
];

describe.each(['allowlist', 'strict'] as const)(
  'generatePolicy (%s mode): URL observations',
  (mode: PolicyMode) => {
    const options = { mode, nonce: NONCE };
    const scriptInStrict = (target: string) => mode === 'strict' && target === 'script-src';
    const objectInStrict = (target: string) => mode === 'strict' && target === 'object-src';

    it.each(URL_CASES)('%s: same-origin → self, third party → exact origin, in %s', (observed, target) => {
      const { rules } = generatePolicy(
        crawl([
          url(observed, `${SITE}/path/a.js?x=1#y`),
          url(observed, 'https://cdn.example:8443/lib/b.js?v=2'),
          url(observed, 'https://CDN.Other.example/c'),
        ]),
        options,
      );
      const sources = rules[target] ?? [];
      if (scriptInStrict(target)) {
        // Host allowlists are what 'strict-dynamic' replaces: none in strict script-src.
        expect(sources.filter(isHostSource)).toEqual([]);
        expect(sources).toContain("'strict-dynamic'");
        return;
      }
      if (objectInStrict(target)) {
        expect(sources).toEqual(["'none'"]);
        return;
      }
      expect(sources).toContain("'self'");
      expect(sources).toContain('https://cdn.example:8443');
      expect(sources).toContain('https://cdn.other.example');
      // exact origins only: no paths, queries or fragments
      expect(sources.filter((s) => s.includes('/lib') || s.includes('?') || s.includes('#'))).toEqual([]);
      // -elem observations go to the base directive so browsers without -elem support work too
      if (observed.endsWith('-elem')) expect(rules[observed]).toBeUndefined();
    });

    it('data: and blob: appear only in the directives where they were seen', () => {
      const { rules } = generatePolicy(
        crawl([
          url('img-src', 'data:image/png;base64,iVBORw0KGgo='),
          url('worker-src', 'blob:https://site.example/7d4c'),
          url('font-src', 'https://fonts.example/f.woff2'),
        ]),
        options,
      );
      expect(rules['img-src']).toEqual(['data:']);
      expect(rules['worker-src']).toEqual(['blob:']);
      expect(rules['font-src']).toEqual(['https://fonts.example']);
      const withScheme = Object.entries(rules).filter(([, s]) =>
        s.some((x) => x === 'data:' || x === 'blob:'),
      );
      // child-src: the worker-src fallback for Safari < 15.5 (engines/fallbacks.ts).
      expect(withScheme.map(([d]) => d).sort()).toEqual(['child-src', 'img-src', 'worker-src']);
    });

    it('websockets: wss as seen, ws upgraded on an https site, kept on an http site', () => {
      const https = generatePolicy(
        crawl([
          url('connect-src', 'wss://live.example/socket'),
          url('connect-src', 'ws://old.example:8080/s'),
        ]),
        options,
      );
      expect(https.rules['connect-src']).toEqual(['wss://live.example', 'wss://old.example:8080']);
      const http = generatePolicy(
        crawl([url('connect-src', 'ws://old.example/s')], 'http://site.example'),
        options,
      );
      expect(http.rules['connect-src']).toEqual(['ws://old.example']);
    });

    it('http: subresources on an https site are allowed as their upgraded https: origin, and said so', () => {
      const policy = generatePolicy(crawl([url('img-src', 'http://img.example/a.png')]), options);
      expect(policy.rules['img-src']).toEqual(['https://img.example']);
      expect(policy.rules['upgrade-insecure-requests']).toEqual([]);
      expect(policy.findings.find((f) => f.code === 'insecure-upgraded')?.value).toBe('https://img.example');
    });

    it('form targets are navigations, not upgraded: an http target stays http (CSP3 http matches https too)', () => {
      const { rules } = generatePolicy(
        crawl([url('form-action', 'http://legacy.example/post'), url('form-action', `${SITE}/search`)]),
        options,
      );
      expect(rules['form-action']).toEqual(["'self'", 'http://legacy.example']);
    });

    it('deduplicates: many URLs on one origin give one source', () => {
      const many = Array.from({ length: 50 }, (_, i) => url('img-src', `https://img.example/${i}.png`));
      const { rules } = generatePolicy(crawl([...many, ...many]), options);
      expect(rules['img-src']).toEqual(['https://img.example']);
    });

    it('is deterministic: observation order does not change the rules or their order', () => {
      const obs: Obs[] = [
        url('img-src', 'https://b.example/x'),
        url('img-src', 'data:,x'),
        url('img-src', `${SITE}/y`),
        url('img-src', 'https://a.example/x'),
        url('connect-src', 'https://api.example'),
        inline('script-src-elem', H2),
        inline('script-src-elem', H1),
        url('script-src-elem', 'https://js.example/a.js'),
      ];
      const forward = generatePolicy(crawl(obs), options);
      const backward = generatePolicy(crawl([...obs].reverse()), options);
      expect(JSON.stringify(backward)).toBe(JSON.stringify(forward));
      expect(forward.rules['img-src']).toEqual(["'self'", 'data:', 'https://a.example', 'https://b.example']);
      expect(Object.keys(forward.rules)).toEqual([
        'default-src',
        'script-src',
        'img-src',
        'connect-src',
        'object-src',
        'base-uri',
        'form-action',
        'frame-ancestors',
        'upgrade-insecure-requests',
      ]);
    });

    it("'self' only stands for the site's origin on the site's own pages", () => {
      const artifact = crawl([url('img-src', `${SITE}/logo.png`)]);
      const other = 'https://www.site.example/';
      artifact.pages.push({
        url: other,
        finalUrl: other,
        status: 200,
        observations: [
          { type: 'url', directive: 'font-src', url: `${SITE}/f.woff2`, page: other },
          { type: 'url', directive: 'font-src', url: 'https://www.site.example/g.woff2', page: other },
        ],
      });
      const { rules } = generatePolicy(artifact, options);
      expect(rules['img-src']).toEqual(["'self'"]);
      expect(rules['font-src']).toEqual(['https://site.example', 'https://www.site.example']);
    });

    it('a crawled host that would inject directives is refused and flagged, never written', () => {
      const policy = generatePolicy(
        crawl([
          url('img-src', "https://evil.example;script-src 'unsafe-inline'/x.png"),
          url('img-src', 'https://a,b.example/x.png'),
          url('img-src', 'https://[::1]:8080/x.png'),
          url('img-src', 'https://under_score.example/x.png'),
          inline('script-src-elem', "sha256-abc';script-src *"),
        ]),
        options,
      );
      const text = serializePolicy(policy.rules);
      expect(text).not.toMatch(/evil|a,b|::1|under_score|\*/);
      expect(policy.rules['img-src']).toBeUndefined();
      const flagged = policy.findings.filter(
        (f) => f.code === 'unrepresentable-source' || f.code === 'invalid-hash',
      );
      expect(flagged).toHaveLength(5);
      expect(flagged.every((f) => f.severity === 'medium')).toBe(true);
    });

    it('schemes other than http(s), ws(s), data: and blob: are left out; browser noise without a finding', () => {
      const policy = generatePolicy(
        crawl([
          url('form-action', 'mailto:sales@site.example'),
          url('frame-src', 'about:blank'),
          url('script-src-elem', 'chrome-extension://abcdef/inject.js'),
        ]),
        options,
      );
      expect(policy.rules['frame-src']).toBeUndefined();
      expect(policy.rules['form-action']).toEqual(["'self'"]);
      expect(policy.findings.filter((f) => f.code === 'unsupported-scheme').map((f) => f.value)).toEqual([
        'mailto:',
      ]);
    });

    it('child-src sources also reach frame-src and worker-src, which no longer fall back to it', () => {
      const { rules } = generatePolicy(
        crawl([
          url('child-src', 'https://widget.example/w'),
          url('frame-src', 'https://video.example/embed'),
          url('worker-src', `${SITE}/sw.js`),
        ]),
        options,
      );
      // child-src also carries worker-src for engines without worker-src (engines/fallbacks.ts).
      expect(rules['child-src']).toEqual(["'self'", 'https://widget.example']);
      expect(rules['frame-src']).toEqual(['https://video.example', 'https://widget.example']);
      expect(rules['worker-src']).toEqual(["'self'", 'https://widget.example']);
    });

    it('a URL reported under an -attr directive is not a source; it is reported', () => {
      const policy = generatePolicy(crawl([url('script-src-attr', 'https://x.example/')]), options);
      expect(JSON.stringify(policy.rules)).not.toContain('x.example');
      expect(codes(policy)).toContain('unexpected-observation');
    });

    it('unclassified default-src resources replace default-src none, flagged', () => {
      const policy = generatePolicy(crawl([url('default-src', 'https://misc.example/a')]), options);
      expect(policy.rules['default-src']).toEqual(['https://misc.example']);
      expect(codes(policy)).toContain('unclassified-resource');
    });
  },
);

describe.each(['allowlist', 'strict'] as const)('generatePolicy (%s mode): inline code and eval', (mode) => {
  const options = { mode, nonce: NONCE };

  it('inline <script>/<style> hashes go to script-src/style-src; handlers and style= to -attr with unsafe-hashes', () => {
    const { rules } = generatePolicy(
      crawl([
        inline('script-src-elem', H1),
        inline('style-src-elem', H2),
        inline('script-src-attr', H2),
        inline('style-src-attr', H1),
      ]),
      options,
    );
    expect(rules['script-src']).toContain(`'${H1}'`);
    expect(rules['script-src']).not.toContain(`'${H2}'`);
    expect(rules['style-src']).toEqual(["'report-sample'", `'${H2}'`]);
    expect(rules['script-src-attr']).toEqual(["'unsafe-hashes'", "'report-sample'", `'${H2}'`]);
    expect(rules['style-src-attr']).toEqual(["'unsafe-hashes'", "'report-sample'", `'${H1}'`]);
    expect(rules['script-src-elem']).toBeUndefined();
    expect(rules['style-src-elem']).toBeUndefined();
  });

  it("javascript: URLs: hash and 'unsafe-hashes' in script-src (checked as script-src-elem); handlers pinned to none", () => {
    const jsUrl: Obs = { type: 'inline', directive: 'script-src-elem', hash: H2, kind: 'javascript-url' };
    const artifact = crawl([inline('script-src-elem', H1), jsUrl]);
    const policy = generatePolicy(artifact, options);
    expect(policy.rules['script-src']).toEqual(
      expect.arrayContaining(["'unsafe-hashes'", `'${H1}'`, `'${H2}'`]),
    );
    // handlers would otherwise fall back to script-src and its 'unsafe-hashes'
    expect(policy.rules['script-src-attr']).toEqual(["'none'"]);
    // The generator does not repeat the audit's judgement: 'unsafe-hashes' is flagged once, low, by the check.
    expect(policy.findings.filter((f) => f.code === 'unsafe-hashes')).toEqual([]);
    expect(
      auditPolicy(policy.rules)
        .findings.filter((f) => f.code === 'unsafe-hashes')
        .map((f) => `${f.severity} ${f.directive}`),
    ).toEqual(['low script-src']);
    for (const obs of artifact.pages[0]!.observations) {
      expect(allowsObservation(policy.rules, obs, SITE), JSON.stringify(obs)).toBe(true);
    }
    // with handler hashes too, script-src-attr lists them instead
    const both = generatePolicy(crawl([jsUrl, inline('script-src-attr', H1)]), options).rules;
    expect(both['script-src-attr']).toEqual(["'unsafe-hashes'", "'report-sample'", `'${H1}'`]);
  });

  it("no 'unsafe-hashes' in script-src without javascript: URLs", () => {
    const { rules } = generatePolicy(
      crawl([inline('script-src-elem', H1), inline('script-src-attr', H2)]),
      options,
    );
    expect(rules['script-src']).not.toContain("'unsafe-hashes'");
  });

  it('no -attr directives without attribute hashes', () => {
    const { rules } = generatePolicy(
      crawl([inline('script-src-elem', H1), inline('style-src-elem', H2)]),
      options,
    );
    expect(rules['script-src-attr']).toBeUndefined();
    expect(rules['style-src-attr']).toBeUndefined();
  });

  it("'unsafe-eval' only when eval was seen, and then flagged once, by the audit's check", () => {
    const without = generatePolicy(crawl([url('script-src-elem', `${SITE}/a.js`)]), options);
    expect(without.rules['script-src']).not.toContain("'unsafe-eval'");
    expect(codes(audited(without))).not.toContain('unsafe-eval');

    const withEval = generatePolicy(crawl([{ type: 'eval', sample: 'eval("1")' }]), options);
    expect(withEval.rules['script-src']).toContain("'unsafe-eval'");
    expect(codes(withEval)).not.toContain('unsafe-eval');
    expect(audited(withEval).findings.filter((f) => f.code === 'unsafe-eval')).toEqual([
      expect.objectContaining({
        severity: 'medium',
        directive: 'script-src',
        value: "'unsafe-eval'",
        checker: 'audit',
      }),
    ]);
  });

  it("WebAssembly compilation gives 'wasm-unsafe-eval', not 'unsafe-eval'", () => {
    const { rules } = generatePolicy(crawl([{ type: 'wasm-eval' }]), options);
    expect(rules['script-src']).toContain("'wasm-unsafe-eval'");
    expect(rules['script-src']).not.toContain("'unsafe-eval'");
  });
});

describe('generatePolicy (allowlist mode): scripts', () => {
  it('script-src is exactly self, origins, hashes and report-sample — never unsafe-inline', () => {
    const { rules } = generatePolicy(
      crawl([
        url('script-src-elem', `${SITE}/app.js`),
        url('script-src-elem', 'https://cdn.example/lib.js'),
        inline('script-src-elem', H1),
        inline('script-src-attr', H2),
      ]),
    );
    expect(rules['script-src']).toEqual(["'self'", "'report-sample'", `'${H1}'`, 'https://cdn.example']);
  });

  it('no script-src at all when no script was seen: default-src none governs', () => {
    expect(generatePolicy(crawl([url('img-src', `${SITE}/a.png`)])).rules['script-src']).toBeUndefined();
  });

  it("a script from a data: URL is allowed but flagged high, once, by the audit's broad-source check", () => {
    const policy = generatePolicy(crawl([url('script-src-elem', 'data:text/javascript,alert(1)')]));
    expect(policy.rules['script-src']).toContain('data:');
    expect(codes(policy)).not.toContain('data-uri-code');
    const flagged = audited(policy).findings.filter((f) => f.value === 'data:');
    expect(flagged).toEqual([
      expect.objectContaining({
        severity: 'high',
        directive: 'script-src',
        code: 'broad-source',
        checker: 'audit',
      }),
    ]);
  });

  it('objects seen: object-src lists their exact origins, flagged', () => {
    const policy = generatePolicy(crawl([url('object-src', 'https://docs.example/a.pdf')]));
    expect(policy.rules['object-src']).toEqual(['https://docs.example']);
    expect(codes(policy)).toContain('objects-allowed');
  });

  it("base-uri keeps 'self' and adds an observed cross-origin <base>", () => {
    const { rules } = generatePolicy(crawl([url('base-uri', 'https://static.example/app/')]));
    expect(rules['base-uri']).toEqual(["'self'", 'https://static.example']);
  });
});

describe('generatePolicy (strict mode): scripts', () => {
  it("Google's shape: nonce, strict-dynamic, inline hashes, and the unsafe-inline/https: fallback", () => {
    const { rules } = generatePolicy(
      crawl([url('script-src-elem', 'https://cdn.example/lib.js'), inline('script-src-elem', H1)]),
      { mode: 'strict', nonce: NONCE },
    );
    expect(rules['script-src']).toEqual([
      "'strict-dynamic'",
      "'unsafe-inline'",
      "'report-sample'",
      `'nonce-${NONCE}'`,
      `'${H1}'`,
      'https:',
    ]);
  });

  it('an http site also gets http: in the fallback', () => {
    const { rules } = generatePolicy(crawl([], 'http://site.example'), { mode: 'strict', nonce: NONCE });
    expect(rules['script-src']).toEqual(expect.arrayContaining(['https:', 'http:']));
  });

  it('objects seen are blocked (object-src none) and flagged', () => {
    const policy = generatePolicy(crawl([url('object-src', 'https://docs.example/a.pdf')]), {
      mode: 'strict',
    });
    expect(policy.rules['object-src']).toEqual(["'none'"]);
    expect(codes(policy)).toContain('objects-blocked');
  });

  it('a <base> seen keeps working: base-uri lists it instead of none', () => {
    const { rules } = generatePolicy(crawl([url('base-uri', `${SITE}/app/`)]), { mode: 'strict' });
    expect(rules['base-uri']).toEqual(["'self'"]);
  });

  it('non-script directives are the same as in allowlist mode', () => {
    const artifact = syntheticArtifact({ seed: 7, observations: 400 });
    const allow = generatePolicy(artifact).rules;
    const strict = generatePolicy(artifact, { mode: 'strict', nonce: NONCE }).rules;
    for (const d of [
      'style-src',
      'img-src',
      'font-src',
      'connect-src',
      'media-src',
      'frame-src',
      'form-action',
    ]) {
      expect(strict[d], d).toEqual(allow[d]);
    }
  });
});

/** URLs crafted to trip origin extraction: odd case, default ports, credentials, backslashes, IDN. */
const TRICKY_URLS = [
  'HTTPS://Mixed.Case.example:443/A',
  'https://user:pass@creds.example/x',
  'https://back.example\\path\\x.js',
  'https://münchen.example/x',
  'http://port.example:80/x',
  'https://port.example:8443',
  'wss://ws.example:443/x',
  'https://trailing.example./x',
  'data:text/css,body{}',
  'blob:https://site.example/uuid',
  'https://q.example?x=//y/z',
  'https://h.example#//frag',
];

function randomArtifact(seed: number): CrawlArtifact {
  const artifact = syntheticArtifact({ seed, observations: 300, origins: 15, inlineHashes: 10 });
  const random = seededRandom(seed * 7919);
  const page = artifact.pages[0]!;
  const directives: ObservedDirective[] = [
    'img-src',
    'connect-src',
    'script-src-elem',
    'style-src-elem',
    'frame-src',
  ];
  for (const href of TRICKY_URLS) {
    const directive = directives[Math.floor(random() * directives.length)]!;
    page.observations.push({ type: 'url', directive, url: href, page: page.url });
  }
  page.observations.push({
    type: 'inline',
    directive: 'script-src-attr',
    hash: fakeSha256(random),
    page: page.url,
  });
  return artifact;
}

describe('generatePolicy: properties over many random crawls', () => {
  const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
  // Random crawls are long; these properties are about generation, the budget's trades have tests of their own.
  const unbounded = { budget: { limit: 10_000_000 } } as const;

  it('allowlist mode never emits an over-broad source', () => {
    for (const seed of seeds) {
      const { rules } = generatePolicy(randomArtifact(seed), unbounded);
      for (const [directive, sources] of Object.entries(rules)) {
        for (const s of sources) {
          const where = `seed ${seed}: ${directive} ${s}`;
          expect(s, where).not.toContain('*');
          expect(['https:', 'http:', 'ws:', 'wss:', "'unsafe-inline'"], where).not.toContain(s);
          if (isSchemeSource(s)) expect(['data:', 'blob:'], where).toContain(s);
          // host sources are exact origins: scheme://host[:port], no bare hosts, no paths
          if (isHostSource(s)) expect(s, where).toMatch(/^(https?|wss?):\/\/[a-z0-9.-]+(:\d+)?$/);
        }
      }
    }
  });

  it('allowlist mode allows every observation under the directive a browser will consult (fallbacks)', () => {
    for (const seed of seeds) {
      const artifact = randomArtifact(seed);
      const { rules } = generatePolicy(artifact, unbounded);
      for (const page of artifact.pages) {
        for (const obs of page.observations) {
          const ok = allowsObservation(rules, obs, artifact.origin);
          expect(ok, `seed ${seed}: ${JSON.stringify(obs)} under ${serializePolicy(rules)}`).toBe(true);
        }
      }
    }
  });

  it('strict mode allows every non-script observation and uses https:/unsafe-inline only as script fallbacks', () => {
    for (const seed of seeds.slice(0, 10)) {
      const artifact = randomArtifact(seed);
      const { rules } = generatePolicy(artifact, { mode: 'strict', nonce: NONCE, ...unbounded });
      for (const [directive, sources] of Object.entries(rules)) {
        if (directive === 'script-src') continue;
        expect(sources).not.toContain("'unsafe-inline'");
        expect(sources).not.toContain('https:');
      }
      for (const obs of artifact.pages.flatMap((p) => p.observations)) {
        // Script URLs are trusted through the nonce and 'strict-dynamic', not through a source; objects
        // are blocked on purpose (object-src 'none', with an objects-blocked finding).
        if (obs.type === 'url' && (obs.directive.startsWith('script-src') || obs.directive === 'object-src'))
          continue;
        expect(allowsObservation(rules, obs, artifact.origin), JSON.stringify(obs)).toBe(true);
      }
    }
  });
});
