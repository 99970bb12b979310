import { describe, expect, it } from 'vitest';
import { versionedUrl } from './versioned-url';

const CDN = 'https://cdn.example';

describe('versionedUrl', () => {
  it.each([
    // A content hash in the file name (webpack hex, Vite/Rollup base64url, esbuild base32).
    [`${CDN}/assets/app.3f9a1c2b.js`, 'file-hash', '3f9a1c2b'],
    [`${CDN}/assets/main-BxK2a9.js`, 'file-hash', 'BxK2a9'],
    [`${CDN}/assets/index-BxK2a9Qw.js`, 'file-hash', 'BxK2a9Qw'],
    [`${CDN}/static/js/chunk.5f3a9b7c01.js`, 'file-hash', '5f3a9b7c01'],
    [`${CDN}/static/js/vendor~main.a1b2c3d4.chunk.js`, 'file-hash', 'a1b2c3d4'],
    [`${CDN}/chunk-7XKJ3MWQ.js`, 'file-hash', '7XKJ3MWQ'],
    [`${CDN}/styles.0e5c7a9f1b.css`, 'file-hash', '0e5c7a9f1b'],
    // A version in the file name.
    [`${CDN}/jquery-3.7.1.min.js`, 'file-version', '3.7.1'],
    [`${CDN}/lib.v2.0.1.js`, 'file-version', '2.0.1'],
    // A version in the path.
    [`${CDN}/ajax/libs/jquery/3.7.1/jquery.min.js`, 'path-version', '3.7.1'],
    ['https://cdn.jsdelivr.net/npm/jquery@3.7.1/dist/jquery.min.js', 'path-version', '3.7.1'],
    ['https://unpkg.com/@scope/pkg@1.2.3-beta.1/index.js', 'path-version', '1.2.3-beta.1'],
    [`${CDN}/releases/v1.2.3/sdk.js`, 'path-version', 'v1.2.3'],
    ['https://cdn.jsdelivr.net/npm/jquery@3.7.1', 'file-version', '3.7.1'],
    // A version or hash in the query.
    [`${CDN}/wp-includes/js/jquery/jquery.min.js?ver=6.4`, 'query-version', '6.4'],
    [`${CDN}/app.js?v=1.2.3`, 'query-version', '1.2.3'],
    [`${CDN}/app.js?v=2`, 'query-version', '2'],
    [`${CDN}/app.css?h=abcdef12`, 'query-hash', 'abcdef12'],
    [`${CDN}/app.js?V=20240101`, 'query-version', '20240101'],
  ])('%s is versioned (%s %s)', (url, by, token) => {
    expect(versionedUrl(url)).toEqual({ versioned: true, by, token });
  });

  it.each([
    [`${CDN}/app.js`, 'no-version'],
    [`${CDN}/js/jquery.min.js`, 'no-version'],
    [`${CDN}/polyfills-es2015.js`, 'no-version'],
    [`${CDN}/player-Embed2.js`, 'no-version'],
    [`${CDN}/jQuery3.js`, 'no-version'],
    [`${CDN}/bootstrap.bundle.min.js`, 'no-version'],
    [`${CDN}/deadbeef.js`, 'no-version'],
    [`${CDN}/app.js?_=1699999999999`, 'no-version'],
    [`${CDN}/app.js?v=`, 'no-version'],
    [`${CDN}/latest/app.js`, 'floating'],
    [`${CDN}/app.js?v=latest`, 'floating'],
    ['https://cdn.jsdelivr.net/npm/jquery@latest/dist/jquery.min.js', 'floating'],
    [`${CDN}/3.7.1/stable/app.js`, 'floating'],
    ['https://www.googletagmanager.com/gtm.js?id=GTM-ABC123', 'tag-manager'],
    ['https://www.googletagmanager.com/gtag/js?id=G-XYZ9', 'tag-manager'],
    [`${CDN}/loader.js?id=GTM-ABC123&v=3`, 'tag-manager'],
    [`${CDN}/v2/sdk.js`, 'major-only'],
    ['https://cdn.jsdelivr.net/npm/jquery@3/dist/jquery.min.js', 'major-only'],
    ['https://cdn.jsdelivr.net/npm/jquery@3.7/dist/jquery.min.js', 'major-only'],
    ['https://cdn.jsdelivr.net/npm/jquery@3', 'major-only'],
    ['not a url', 'no-version'],
    ['', 'no-version'],
  ])('%s is not versioned (%s)', (url, why) => {
    expect(versionedUrl(url)).toEqual({ versioned: false, why });
  });
});
