import { describe, expect, it } from 'vitest';
import { TRUSTED_TYPES_LIMITS, trustedTypesDryRunSchema } from '../schemas/trusted-types';
import {
  addPageToTally,
  dryRunOf,
  emptyTrustedTypesTally,
  type PageTrustedTypes,
  type SinkViolation,
  sinkUseOf,
  type TrustedTypesTally,
  trustedTypesTallySchema,
} from './dry-run';

const APP = 'https://example.com/app.js';
const at = (sample: string, line: number, sourceFile = APP, column = 5): SinkViolation => ({
  sample,
  sourceFile,
  line,
  column,
});
const fold = (pages: PageTrustedTypes[]): TrustedTypesTally =>
  pages.reduce(addPageToTally, emptyTrustedTypesTally());
const page = (url: string, violations: SinkViolation[] = [], policyNames: string[] = []) => ({
  page: url,
  violations,
  policyNames,
});

describe('sinkUseOf', () => {
  it('splits the sample into the sink and the start of the value', () => {
    expect(sinkUseOf(at('Element innerHTML|<p>hello', 12))).toEqual({
      sink: 'Element innerHTML',
      script: APP,
      line: 12,
      column: 5,
      sample: '<p>hello',
    });
    // A value holding a bar keeps it: only the first bar separates.
    expect(sinkUseOf(at('eval|a||b', 1)).sample).toBe('a||b');
  });

  it('keeps a sample without a bar as the sink, and unknown places as null', () => {
    expect(sinkUseOf({ sample: 'Function', sourceFile: '', line: 0, column: 0 })).toEqual({
      sink: 'Function',
      script: null,
      line: null,
      column: null,
      sample: '',
    });
  });
});

describe('the Trusted Types fold', () => {
  it('is ready when no page used a sink', () => {
    const run = dryRunOf(fold([page('https://example.com/'), page('https://example.com/b', [], ['app'])]));
    expect(run).toEqual({
      readiness: 'ready',
      sinks: [],
      sinkCount: 0,
      pagesChecked: 2,
      policyNames: ['app'],
    });
  });

  it('groups uses by sink, script and line across pages, whatever the value', () => {
    const tally = fold([
      page('https://example.com/', [at('Element innerHTML|<b>1</b>', 3), at('eval|1+1', 9)]),
      // The same line with another value and another column, twice on one page: one use, one page more.
      page('https://example.com/b', [
        at('Element innerHTML|<i>2</i>', 3, APP, 7),
        at('Element innerHTML|x', 3),
      ]),
      // The same sink on another line, and in another script: two more uses.
      page('https://example.com/c', [
        at('Element innerHTML|y', 4),
        at('Element innerHTML|z', 3, 'https://cdn.example/lib.js'),
      ]),
    ]);
    const run = dryRunOf(tally);
    expect(run.sinkCount).toBe(4);
    expect(run.pagesChecked).toBe(3);
    expect(run.readiness).toBe('default-policy');
    // The use most pages share first; the first value and column seen are kept.
    expect(run.sinks[0]).toEqual({
      sink: 'Element innerHTML',
      script: APP,
      line: 3,
      column: 5,
      sample: '<b>1</b>',
      pages: ['https://example.com/', 'https://example.com/b'],
      pageCount: 2,
    });
    expect(run.sinks.slice(1).map((s) => `${s.sink} ${s.script}:${s.line}`)).toEqual([
      `eval ${APP}:9`,
      `Element innerHTML ${APP}:4`,
      'Element innerHTML https://cdn.example/lib.js:3',
    ]);
    expect(trustedTypesDryRunSchema.safeParse(run).success).toBe(true);
  });

  it('is far beyond the default-policy threshold of distinct uses', () => {
    const uses = (n: number) => Array.from({ length: n }, (_, i) => at('Element innerHTML|x', i + 1));
    const limit = TRUSTED_TYPES_LIMITS.defaultPolicyUses;
    expect(dryRunOf(fold([page('https://example.com/', uses(limit))])).readiness).toBe('default-policy');
    expect(dryRunOf(fold([page('https://example.com/', uses(limit + 1))])).readiness).toBe('far');
  });

  it('keeps policy names once, and only names the trusted-types directive can list', () => {
    const tally = fold([
      page('https://example.com/', [], ['app', 'default', 'bad name', "x'; script-src *", '']),
      page(
        'https://example.com/b',
        [],
        ['app', 'dompurify', 'a'.repeat(TRUSTED_TYPES_LIMITS.policyNameChars + 1)],
      ),
    ]);
    expect(tally.policyNames).toEqual(['app', 'default', 'dompurify']);
    const many = fold([
      page(
        'https://example.com/',
        [],
        Array.from({ length: 80 }, (_, i) => `p${i}`),
      ),
    ]);
    expect(many.policyNames).toHaveLength(TRUSTED_TYPES_LIMITS.policyNames);
  });

  it('bounds what a hostile site makes it keep, and the counts stay whole', () => {
    const long = `https://example.com/${'p'.repeat(3000)}`;
    const pages = Array.from({ length: 40 }, (_, p) =>
      page(
        `${long}?page=${p}`,
        Array.from({ length: 300 }, (_, i) =>
          at(`Element innerHTML|${'v'.repeat(500)}`, i + 1, `${long}.js`),
        ),
      ),
    );
    // Through the crawl state's JSON and schema, as a continued crawl reads it.
    const tally = trustedTypesTallySchema.parse(JSON.parse(JSON.stringify(fold(pages))));
    expect(tally.sinks).toHaveLength(TRUSTED_TYPES_LIMITS.sinks);
    expect(tally.unlisted).toHaveLength(100);
    expect(tally.sinks[0]?.pages).toHaveLength(TRUSTED_TYPES_LIMITS.pagesPerSink);
    expect(tally.sinks[0]?.pageCount).toBe(40);
    const run = dryRunOf(tally);
    expect(run.sinkCount).toBe(300);
    expect(run.readiness).toBe('far');
    expect(JSON.stringify(run).length).toBeLessThanOrEqual(TRUSTED_TYPES_LIMITS.resultChars);
    expect(run.sinks.length).toBeGreaterThan(0);
    expect(
      run.sinks.every((s) => s.pageCount === 40 && s.sample.length <= TRUSTED_TYPES_LIMITS.sampleChars),
    ).toBe(true);
    expect(trustedTypesDryRunSchema.safeParse(run).success).toBe(true);
  });
});
