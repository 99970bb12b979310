// How a page's raw capture becomes observations (pure: inline arrays in, observations out).
import { describe, expect, it } from 'vitest';
import { browserFlags } from './browser';
import { classifyPage, cspHash, inlineShape, javascriptUrlText, type NetworkRecord } from './classify';
import type { InstrumentItem } from './instrument';

const page = 'https://site.example/p';
const origin = 'https://site.example';
const violation = (directive: string, blocked: string, sample = ''): InstrumentItem => ({
  k: 'violation',
  directive,
  blocked,
  sample,
  sourceFile: page,
  line: 3,
  column: 7,
  document: page,
});

describe('classifyPage', () => {
  it('turns violations into url, eval and wasm observations with where they happened', () => {
    const { observations } = classifyPage({
      page,
      siteOrigin: origin,
      network: [],
      items: [
        violation('script-src-elem', 'https://cdn.example/a.js'),
        violation('script-src-elem', 'https://cdn.example/a.js'),
        violation('img-src', 'data'),
        violation('worker-src', 'blob'),
        violation('script-src', 'eval', "eval('1')"),
        violation('script-src', 'wasm-eval'),
        violation('frame-ancestors', 'https://x.example'),
      ],
    });
    expect(observations).toEqual([
      {
        type: 'url',
        directive: 'script-src-elem',
        url: 'https://cdn.example/a.js',
        page,
        sourceFile: page,
        line: 3,
        column: 7,
      },
      { type: 'url', directive: 'img-src', url: 'data:', page, sourceFile: page, line: 3, column: 7 },
      { type: 'url', directive: 'worker-src', url: 'blob:', page, sourceFile: page, line: 3, column: 7 },
      { type: 'eval', sample: "eval('1')", page, sourceFile: page, line: 3, column: 7 },
      { type: 'wasm-eval', page, sourceFile: page, line: 3, column: 7 },
    ]);
  });

  it('hashes inline code as written in the DOM', () => {
    const { observations } = classifyPage({
      page,
      siteOrigin: origin,
      network: [],
      items: [
        { k: 'inline', directive: 'script-src-elem', text: 'alert(1)', document: page },
        { k: 'inline', directive: 'script-src-attr', text: "go('x')", document: page },
        { k: 'javascript-url', url: 'javascript:go(%22a%20b%22)', document: page },
      ],
    });
    expect(observations).toEqual([
      // echo -n 'alert(1)' | openssl sha256 -binary | base64
      {
        type: 'inline',
        directive: 'script-src-elem',
        hash: 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=',
        sample: 'alert(1)',
        shape: inlineShape('alert(1)'),
        kind: 'element',
        page,
      },
      {
        type: 'inline',
        directive: 'script-src-attr',
        hash: cspHash("go('x')"),
        sample: "go('x')",
        shape: inlineShape("go('x')"),
        kind: 'attribute',
        page,
      },
      {
        type: 'inline',
        directive: 'script-src-elem',
        hash: cspHash('javascript:go("a b")'),
        sample: 'javascript:go("a b")',
        shape: inlineShape('javascript:go("a b")'),
        kind: 'javascript-url',
        page,
      },
    ]);
    expect(javascriptUrlText('javascript:a(%E2%82%AC,%ZZ)')).toBe('javascript:a(€,%ZZ)');
    // Code that differs only in values has one shape (the stability check relies on it).
    expect(inlineShape('var t = "9f8e7d";')).toBe(inlineShape('var t = "0a1b2c";'));
    expect(inlineShape('var t = "9f8e7d";')).not.toBe(inlineShape('var u = "9f8e7d";'));
  });

  it('keeps style= values only when the browser reported them (CSSOM writes are never checked)', () => {
    const applied = 'color: red; margin-left: 12px; padding-top: 1px; border: 0';
    const { observations, unmatchedInline } = classifyPage({
      page,
      siteOrigin: origin,
      network: [],
      items: [
        { k: 'inline', directive: 'style-src-attr', text: applied, document: page },
        { k: 'inline', directive: 'style-src-attr', text: 'top: 3px;', document: page },
        violation('style-src-attr', 'inline', applied.slice(0, 40)),
        violation('script-src-elem', 'inline', 'lost()'),
      ],
    });
    expect(observations.map((o) => (o.type === 'inline' ? o.hash : o.type))).toEqual([cspHash(applied)]);
    expect(unmatchedInline).toEqual(['script-src-elem: lost()']);
  });

  it('adds requests only network events saw (workers), for documents of the site', () => {
    const network: NetworkRecord[] = [
      {
        type: 'Fetch',
        url: 'https://api.example/w',
        context: 'worker',
        documentUrl: 'https://site.example/w.js',
      },
      {
        type: 'Other',
        url: 'https://cdn.example/lib.js',
        context: 'worker',
        documentUrl: 'https://site.example/w.js',
      },
      {
        type: 'WebSocket',
        url: 'wss://ws.example/s',
        context: 'service_worker',
        documentUrl: 'https://site.example/sw.js',
      },
      {
        type: 'Script',
        url: 'https://cdn.example/b.js',
        context: 'page',
        documentUrl: 'blob:https://site.example/1-2',
      },
      { type: 'Image', url: 'https://img.example/i.png', context: 'page', documentUrl: 'about:srcdoc' },
      // Another origin's frame: its loads are under its own policy, not ours.
      {
        type: 'Image',
        url: 'https://x.example/i.png',
        context: 'page',
        documentUrl: 'https://x.example/frame',
      },
      {
        type: 'Document',
        url: 'https://site.example/frame',
        context: 'page',
        documentUrl: 'https://site.example/frame',
      },
      { type: 'Preflight', url: 'https://api.example/w', context: 'page', documentUrl: page },
    ];
    const { observations } = classifyPage({ page, siteOrigin: origin, items: [], network });
    expect(observations.map((o) => (o.type === 'url' ? `${o.directive} ${o.url}` : o.type))).toEqual([
      'connect-src https://api.example/w',
      'script-src-elem https://cdn.example/lib.js',
      'connect-src wss://ws.example/s',
      'script-src-elem https://cdn.example/b.js',
      'img-src https://img.example/i.png',
    ]);
  });
});

describe('browserFlags', () => {
  it('drops the flags that change what a page loads and routes everything through the proxy', () => {
    const flags = browserFlags(
      [
        '--single-process',
        '--disable-web-security',
        '--disable-site-isolation-trials',
        '--allow-running-insecure-content',
        '--disable-features=AudioServiceOutOfProcess,IsolateOrigins,site-per-process',
        "--headless='shell'",
        '--no-sandbox',
      ],
      { proxyUrl: 'http://127.0.0.1:4567', userAgent: 'Bot/1' },
    );
    expect(flags).toEqual([
      '--no-sandbox',
      '--disable-features=AudioServiceOutOfProcess,BackForwardCache',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      '--disable-gpu-compositing',
      '--proxy-server=http://127.0.0.1:4567',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
      '--proxy-bypass-list=<-loopback>',
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--user-agent=Bot/1',
    ]);
  });
});
