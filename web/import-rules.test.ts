// The import rules `npm run lint` enforces (biome.json): no import cycle anywhere, type-only imports included,
// and web features that import only lib/, components/, config/, hooks/ and themselves
// (feature-boundaries.grit). Each case plants files in a temporary project that has the repo's linter settings
// and shape (web's `@/` alias, the @csp workspace packages) and runs Biome on it.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_DIR = resolve(import.meta.dirname, '..');
const BIOME_BIN = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
const projects: string[] = [];

/** The repo's linter and plugins, nothing else (no VCS ignore file or includes outside the repo). */
function lintConfig() {
  const config = JSON.parse(readFileSync(join(REPO_DIR, 'biome.json'), 'utf8'));
  return {
    plugins: (config.plugins as string[]).map((plugin) => resolve(REPO_DIR, plugin)),
    linter: config.linter,
  };
}

/** Writes the files into a fresh project shaped like the repo and returns Biome's findings on it. */
function lint(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'csp-import-rules-'));
  projects.push(dir);
  const all: Record<string, string> = {
    'biome.json': JSON.stringify(lintConfig()),
    // Biome reads a tsconfig.json (for `@/`) beside a package.json, as in the repo's workspaces.
    'web/package.json': JSON.stringify({ name: '@csp/web' }),
    'web/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./src/*'] } } }),
    'shared/package.json': JSON.stringify({ name: '@csp/shared', exports: { './*': './src/*.ts' } }),
    'functions/package.json': JSON.stringify({ name: '@csp/functions' }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  mkdirSync(join(dir, 'node_modules/@csp'), { recursive: true });
  symlinkSync('../../shared', join(dir, 'node_modules/@csp/shared'));
  symlinkSync('../../functions', join(dir, 'node_modules/@csp/functions'));
  const result = spawnSync(process.execPath, [BIOME_BIN, 'lint', '--max-diagnostics=100', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const output = `${result.stdout}\n${result.stderr}`;
  // The import rules' findings, one line each: `path:line rule` (other rules may comment on the samples).
  const findings = [...output.matchAll(/^(\S+?):(\d+):\d+ (lint\/suspicious\/noImportCycles|plugin) /gm)].map(
    (m) => `${m[1]}:${m[2]} ${m[3]}`,
  );
  return { status: result.status, findings, output };
}

afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

const CYCLE = 'lint/suspicious/noImportCycles';

describe('import cycles', () => {
  it('passes imports that go one way', () => {
    const result = lint({
      'shared/src/schemas/policy.ts': 'export type Policy = { rules: string[] };\n',
      'shared/src/csp/audit.ts':
        "import type { Policy } from '../schemas/policy';\n\nexport const audit = (p: Policy) => p.rules.length;\n",
      'functions/src/run.ts':
        "import { audit } from '@csp/shared/csp/audit';\n\nexport const run = () => audit({ rules: [] });\n",
    });
    expect(result.findings, result.output).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('fails on a cycle of type-only imports', () => {
    const result = lint({
      'shared/src/schemas/analysis.ts':
        "import type { Audit } from '../csp/audit';\n\nexport type Analysis = { audit?: Audit };\n",
      'shared/src/csp/audit.ts':
        "import type { Analysis } from '../schemas/analysis';\n\nexport type Audit = { of?: Analysis };\n",
    });
    expect(result.findings).toEqual([
      `shared/src/csp/audit.ts:1 ${CYCLE}`,
      `shared/src/schemas/analysis.ts:1 ${CYCLE}`,
    ]);
    expect(result.status).not.toBe(0);
  });

  it('fails on a cycle through three files, one import of them a named type import', () => {
    const result = lint({
      'functions/src/api/deps.ts':
        "import { type AnalysisQueue } from '../queue/queue';\n\nexport type ApiDeps = { queue: AnalysisQueue };\n",
      'functions/src/queue/queue.ts':
        "import { backoff } from '../crawler/retry';\n\nexport type AnalysisQueue = { send(): void };\nexport const delay = backoff;\n",
      'functions/src/crawler/retry.ts':
        "import type { ApiDeps } from '../api/deps';\n\nexport const backoff = (d?: ApiDeps) => (d ? 1 : 2);\n",
    });
    expect(result.findings).toEqual([
      `functions/src/api/deps.ts:1 ${CYCLE}`,
      `functions/src/crawler/retry.ts:1 ${CYCLE}`,
      `functions/src/queue/queue.ts:1 ${CYCLE}`,
    ]);
  });

  it('fails on a cycle between workspace packages', () => {
    const result = lint({
      'shared/src/limits.ts':
        "import type { Store } from '@csp/functions/src/store';\n\nexport type Limits = { store?: Store };\n",
      'functions/src/store.ts':
        "import type { Limits } from '@csp/shared/limits';\n\nexport type Store = { limits?: Limits };\n",
    });
    expect(result.findings).toEqual([`functions/src/store.ts:1 ${CYCLE}`, `shared/src/limits.ts:1 ${CYCLE}`]);
  });

  it("fails on a cycle through web's @/ alias", () => {
    const result = lint({
      'web/src/lib/query-keys.ts':
        "import type { Session } from '@/lib/session';\n\nexport const key = (s?: Session) => [s];\n",
      'web/src/lib/session.ts':
        "import { key } from './query-keys';\n\nexport type Session = { id: string };\nexport const k = key;\n",
    });
    expect(result.findings).toEqual([
      `web/src/lib/query-keys.ts:1 ${CYCLE}`,
      `web/src/lib/session.ts:1 ${CYCLE}`,
    ]);
  });
});

describe('web feature boundaries', () => {
  const shared = {
    'web/src/lib/format.ts': 'export const countOf = (n: number) => String(n);\n',
    'web/src/components/badge.tsx': 'export const Badge = () => null;\n',
    'web/src/config/env.ts': 'export const env = {};\n',
    'web/src/hooks/use-toast.ts': 'export const useToast = () => null;\n',
    'web/src/app/router.tsx':
      "import { Card } from '@/features/reports/components/card';\n\nexport const r = Card;\n",
    'web/src/features/reports/utils/classes.ts': 'export const LABELS = {};\n',
    'web/src/features/reports/components/card.tsx': 'export const Card = () => null;\n',
  };

  it('passes a feature that imports lib, components, config, hooks, itself and packages', () => {
    const result = lint({
      ...shared,
      'web/src/features/reports/components/policy/row.tsx': [
        "import { z } from 'zod';",
        "import { Badge } from '@/components/badge';",
        "import { env } from '@/config/env';",
        "import { Card } from '@/features/reports/components/card';",
        "import { useToast } from '@/hooks/use-toast';",
        "import { countOf } from '@/lib/format';",
        "import { countOf as c } from '../../../../lib/format';",
        "import { LABELS } from '../../utils/classes';",
        "import { Card as C } from '../card';",
        '',
        'export const all = [z, Badge, env, Card, useToast, countOf, c, LABELS, C];',
        '',
      ].join('\n'),
    });
    expect(result.findings, result.output).toEqual([]);
    expect(result.status).toBe(0);
  });

  it('fails on a feature importing another feature, by alias or relative path, or the app', () => {
    const result = lint({
      ...shared,
      'web/src/features/configurations/components/editor.tsx': [
        "import { LABELS } from '@/features/reports/utils/classes';",
        "import type { Card } from '../../reports/components/card';",
        "export { Card as C } from '../../reports/components/card';",
        "import { r } from '@/app/router';",
        '',
        'export const all = [LABELS, r] as unknown as Card;',
        '',
      ].join('\n'),
      'web/src/features/configurations/index.ts':
        "import { r } from '../../app/router';\n\nexport const x = r;\n",
    });
    expect(result.findings).toEqual([
      'web/src/features/configurations/components/editor.tsx:1 plugin',
      'web/src/features/configurations/components/editor.tsx:2 plugin',
      'web/src/features/configurations/components/editor.tsx:3 plugin',
      'web/src/features/configurations/components/editor.tsx:4 plugin',
      'web/src/features/configurations/index.ts:1 plugin',
    ]);
    expect(result.output).toContain('A feature imports only lib/, components/, config/, hooks/ and itself');
    expect(result.status).not.toBe(0);
  });
});
