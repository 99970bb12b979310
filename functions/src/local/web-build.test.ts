// `npm start` builds the web app only when an input of the build changed: real Vite builds of a small
// project laid out like the repository (web/, shared/src, package-lock.json) in a temporary folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureWebBuild, STAMP_FILE } from './web-build';

const root = mkdtempSync(join(tmpdir(), 'csp-web-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

write('package-lock.json', '{"lockfileVersion": 3}\n');
write('tsconfig.base.json', '{}\n');
write('web/index.html', '<!doctype html><script type="module" src="/src/main.ts"></script>\n');
write(
  'web/src/main.ts',
  "import { greeting } from '../../shared/src/greeting';\ndocument.title = greeting;\n",
);
write('shared/src/greeting.ts', "export const greeting = 'hello';\n");
// In shared/src but not imported by the web app: the server's business only.
write('shared/src/server-only.ts', 'export const limit = 1;\n');

const lines: string[] = [];
const run = () => ensureWebBuild({ root, log: (line) => lines.push(line), env: {} });
const bundle = () => {
  const html = readFileSync(join(root, 'web/dist/index.html'), 'utf8');
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
  return readFileSync(join(root, 'web/dist', script), 'utf8');
};

describe('web build on start', () => {
  it('builds once, then skips until an input of the build changes', { timeout: 120_000 }, async () => {
    expect((await run()).built).toBe(true);
    expect(lines).toEqual([
      'Building the web app (no build yet)...',
      expect.stringMatching(/^Web app built in \d+\.\d s\.$/),
    ]);
    expect(bundle()).toContain('hello');
    const stamp = JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8'));
    expect(stamp.sharedFiles).toEqual(['shared/src/greeting.ts']);

    const builtAt = statSync(join(root, 'web/dist/index.html')).mtimeMs;
    lines.length = 0;
    expect((await run()).built).toBe(false);
    expect(lines).toEqual(['Web app unchanged since the last build: using web/dist.']);
    expect(statSync(join(root, 'web/dist/index.html')).mtimeMs).toBe(builtAt);

    // A shared file the web app does not import changes nothing in it.
    write('shared/src/server-only.ts', 'export const limit = 2;\n');
    expect((await run()).built).toBe(false);

    // One it imports does.
    write('shared/src/greeting.ts', "export const greeting = 'bonjour';\n");
    lines.length = 0;
    expect((await run()).built).toBe(true);
    expect(lines[0]).toBe('Building the web app (sources changed since the last build)...');
    expect(bundle()).toContain('bonjour');
    expect((await run()).built).toBe(false);

    write(
      'web/src/main.ts',
      "import { greeting } from '../../shared/src/greeting';\ndocument.title = greeting + '!';\n",
    );
    expect((await run()).built).toBe(true);
    expect((await run()).built).toBe(false);

    // Any file under web/ (Tailwind reads them all for class names), the lock file, a VITE_ variable.
    write('web/e2e/page.test.ts', "const cls = 'grid-cols-3';\n");
    expect((await run()).built).toBe(true);
    write('package-lock.json', '{"lockfileVersion": 3, "packages": {}}\n');
    expect((await run()).built).toBe(true);
    expect((await ensureWebBuild({ root, log: () => {}, env: { VITE_API_URL: '/x' } })).built).toBe(true);
    expect((await run()).built).toBe(true);
    expect((await run()).built).toBe(false);
  });

  it('rebuilds a dist it did not build, a removed one, and when forced', { timeout: 120_000 }, async () => {
    expect((await run()).built).toBe(false);
    // e.g. a plain `vite build` of other sources: the stamp does not describe this dist.
    write('web/dist/index.html', '<!doctype html><title>other build</title>\n');
    lines.length = 0;
    expect((await run()).built).toBe(true);
    expect(lines[0]).toBe('Building the web app (web/dist was not built by this step)...');
    rmSync(join(root, 'web/dist'), { recursive: true });
    expect((await run()).built).toBe(true);
    expect((await ensureWebBuild({ root, log: () => {}, env: {}, force: true })).built).toBe(true);
    expect((await run()).built).toBe(false);
  });
});
