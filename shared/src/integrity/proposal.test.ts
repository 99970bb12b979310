import { describe, expect, it } from 'vitest';
import { SRI_LIMITS, subresourceIntegritySchema } from '../schemas/subresource-integrity';
import type { PageScript } from '../watch/run-snapshot';
import {
  integrityProposal,
  integrityVerdict,
  type SriPage,
  scriptIntegrityVerdict,
  sriReasonText,
  withContentHistory,
} from './proposal';

const SITE = 'https://shop.test';
const CDN = 'https://cdn.test';
const A = 'sha384-AAAA';
const B = 'sha384-BBBB';
const script = (url: string, digest: string | null, cors: boolean | null): PageScript => ({
  kind: 'external',
  url,
  digest,
  initiator: null,
  sha256: null,
  cors,
});

describe('integrityVerdict', () => {
  const base = { kind: 'script' as const, digests: [A], cors: true, sameOrigin: false };
  it.each([
    ['versioned, CORS, one content', { url: `${CDN}/lib@1.2.3/x.js` }, true, 'anonymous', []],
    [
      'same origin needs no CORS',
      { url: `${SITE}/app.3f9a1c2b.js`, sameOrigin: true, cors: false },
      true,
      null,
      [],
    ],
    ['unversioned', { url: `${CDN}/x.js` }, false, 'anonymous', ['no-version']],
    ['no CORS', { url: `${CDN}/x.3f9a1c2b.js`, cors: false }, false, 'anonymous', ['no-cors']],
    ['CORS unknown', { url: `${CDN}/x.3f9a1c2b.js`, cors: null }, false, 'anonymous', ['cors-unknown']],
    ['unread', { url: `${CDN}/x.3f9a1c2b.js`, digests: [] }, false, 'anonymous', ['unread']],
    [
      'content differs',
      { url: `${CDN}/x.3f9a1c2b.js`, digests: [A, B] },
      false,
      'anonymous',
      ['content-differs'],
    ],
    ['latest', { url: `${CDN}/latest/x.js`, cors: false }, false, 'anonymous', ['floating', 'no-cors']],
    [
      'tag manager',
      { url: 'https://www.googletagmanager.com/gtm.js?id=GTM-X1' },
      false,
      'anonymous',
      ['tag-manager'],
    ],
  ])('%s', (_name, over, ready, crossorigin, reasons) => {
    const verdict = integrityVerdict({ ...base, ...over });
    expect(verdict).toMatchObject({ ready, crossorigin, reasons });
    // The digest to pin: the one content read (none when unread or when reads differed).
    const digests = 'digests' in over ? over.digests : base.digests;
    expect(verdict.sha384).toBe(digests.length === 1 ? A : null);
  });

  it('says each reason in words', () => {
    expect(sriReasonText('no-version')).toBe(
      'The URL has no version: the vendor can change the file at this address and SRI would then block it',
    );
    expect(sriReasonText('no-cors', 'stylesheet')).toContain('a cross-origin stylesheet with integrity');
  });
});

describe('integrityProposal', () => {
  it('merges files over pages, and groups pages by the set of files they load', () => {
    const lib = `${CDN}/lib@1.2.3/lib.js`;
    const css = `${CDN}/style.3f9a1c2b.css`;
    const tag = 'https://tags.test/tag.js';
    const own = `${SITE}/app.js?v=7`;
    const pages: SriPage[] = [
      {
        page: `${SITE}/`,
        scripts: [
          script(lib, A, true),
          script(own, B, null),
          { kind: 'inline', url: null, digest: 'sha384-inline', initiator: null },
        ],
        stylesheets: [{ url: css, digest: 'sha384-CSS', cors: true }],
      },
      // The same files in another order (the memory cache: lib unread here): the same template.
      {
        page: `${SITE}/about`,
        scripts: [script(own, null, null), script(lib, null, null)],
        stylesheets: [{ url: `${css}#x`, digest: null, cors: null }],
      },
      // The tag read twice with different content.
      { page: `${SITE}/shop`, scripts: [script(lib, A, true), script(tag, A, true)] },
      { page: `${SITE}/cart`, scripts: [script(tag, B, true)] },
      { page: `${SITE}/empty`, scripts: [] },
    ];
    const proposal = integrityProposal(pages, SITE);
    expect(subresourceIntegritySchema.safeParse(proposal).success).toBe(true);
    expect(proposal.resources).toEqual([
      {
        kind: 'script',
        url: lib,
        sha384: A,
        ready: true,
        crossorigin: 'anonymous',
        reasons: [],
        pageCount: 3,
      },
      { kind: 'script', url: own, sha384: B, ready: true, crossorigin: null, reasons: [], pageCount: 2 },
      {
        kind: 'stylesheet',
        url: css,
        sha384: 'sha384-CSS',
        ready: true,
        crossorigin: 'anonymous',
        reasons: [],
        pageCount: 2,
      },
      {
        kind: 'script',
        url: tag,
        sha384: null,
        ready: false,
        crossorigin: 'anonymous',
        reasons: ['content-differs', 'no-version'],
        pageCount: 2,
      },
    ]);
    expect(proposal.resourceCount).toBe(4);
    expect(proposal.templates).toEqual([
      { page: `${SITE}/`, pageCount: 2, resources: [0, 1, 2] },
      { page: `${SITE}/shop`, pageCount: 1, resources: [0, 3] },
      { page: `${SITE}/cart`, pageCount: 1, resources: [3] },
    ]);
    expect(proposal.templateCount).toBe(3);
  });

  it('stays within its bounds whatever a hostile site loads', () => {
    const pages: SriPage[] = Array.from({ length: 60 }, (_, p) => ({
      page: `${SITE}/p${p}`,
      scripts: Array.from({ length: 50 }, (_, i) =>
        script(`${CDN}/${'x'.repeat(900)}/s${p}-${i}.3f9a1c2b.js`, A, true),
      ),
      stylesheets: [{ url: `${CDN}/${'y'.repeat(5_000)}.css`, digest: A, cors: true }],
    }));
    const proposal = integrityProposal(pages, SITE);
    expect(subresourceIntegritySchema.safeParse(proposal).success).toBe(true);
    expect(JSON.stringify(proposal).length).toBeLessThanOrEqual(SRI_LIMITS.jsonChars);
    expect(proposal.resources.length).toBeGreaterThan(10);
    expect(proposal.resourceCount).toBe(60 * 50 + 1);
    expect(proposal.templateCount).toBe(60);
    expect(proposal.templates.length).toBeLessThanOrEqual(SRI_LIMITS.templates);
    // The 5,000-character URL is counted, not kept.
    expect(proposal.resources.some((r) => r.kind === 'stylesheet')).toBe(false);
  });
});

describe('scriptIntegrityVerdict', () => {
  const entry = {
    kind: 'external' as const,
    url: `${CDN}/lib@1.2.3/lib.js`,
    party: 'third' as const,
    digest: A,
    digests: [{ digest: A, firstSeen: 't', lastSeen: 't' }],
    cors: true,
  };
  it('reads the inventory: content over runs, CORS, first party as same origin', () => {
    expect(scriptIntegrityVerdict(entry)).toMatchObject({ ready: true, sha384: A, crossorigin: 'anonymous' });
    const changed = { ...entry, digests: [{ digest: B, firstSeen: 't', lastSeen: 't' }, ...entry.digests] };
    expect(scriptIntegrityVerdict(changed)?.reasons).toEqual(['content-differs']);
    expect(scriptIntegrityVerdict({ ...entry, cors: undefined })?.reasons).toEqual(['cors-unknown']);
    expect(scriptIntegrityVerdict({ ...entry, party: 'first', cors: false })).toMatchObject({
      ready: true,
      crossorigin: null,
    });
    expect(scriptIntegrityVerdict({ ...entry, digest: 'unread', digests: [] })?.reasons).toEqual(['unread']);
    expect(scriptIntegrityVerdict({ ...entry, digest: null, digests: [] })?.reasons).toEqual(['unread']);
    expect(scriptIntegrityVerdict({ ...entry, kind: 'inline', url: null })).toBeNull();
    expect(scriptIntegrityVerdict({ ...entry, kind: 'worker' })).toBeNull();
  });
});

describe('withContentHistory', () => {
  const LIB = `${CDN}/lib@1.2.3/lib.js`;
  const proposal = integrityProposal(
    [{ page: `${SITE}/`, scripts: [script(LIB, A, true), script(`${CDN}/x.3f9a1c2b.js`, A, true)] }],
    SITE,
  );
  const entry = (url: string, ...digests: string[]) => ({
    kind: 'external' as const,
    url,
    digest: digests.at(-1) ?? null,
    digests: digests.map((digest) => ({ digest, firstSeen: 't', lastSeen: 't' })),
  });
  it('takes back a proposal whose script had another content in an earlier run', () => {
    const checked = withContentHistory(proposal, [entry(LIB, B, A), entry(`${CDN}/x.3f9a1c2b.js`, A)]);
    expect(checked.resources[0]).toMatchObject({
      url: LIB,
      ready: false,
      sha384: null,
      reasons: ['content-differs'],
    });
    expect(checked.resources[1]).toEqual(proposal.resources[1]);
    // Nothing to change: the same object (nothing is written).
    expect(withContentHistory(proposal, [entry(LIB, A), entry('https://other.test/a.js', A, B)])).toBe(
      proposal,
    );
    expect(withContentHistory(proposal, [entry(LIB, 'unread', A)])).toBe(proposal);
  });
});
