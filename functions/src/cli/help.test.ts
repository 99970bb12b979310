// Every command's --help (through the real entry point), the overview through `npx csp-generator` (the bin
// entry of the root package.json), and wrong command lines: exit 2 with a message naming what is wrong.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCliProcess } from '../testing/cli-process';
import { COMMANDS } from './cli';
import { EXIT } from './exit-codes';

describe('csp-generator --help', () => {
  it.each(Object.keys(COMMANDS))('%s --help names its flags and the exit codes', async (name) => {
    const command = await COMMANDS[name]!.load();
    const run = await runCliProcess([name, '--help']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: csp-generator ${name} `));
    for (const flag of [...Object.keys(command.flags), 'json', 'help'])
      expect(run.stdout).toContain(`--${flag}`);
    for (const code of Object.values(EXIT))
      expect(run.stdout).toMatch(new RegExp(`^ {2}${code} {2}\\w`, 'm'));
  });

  it('npx csp-generator --help lists the commands (the bin entry); no command at all is a usage error', async () => {
    const run = await runCliProcess(['--help'], { command: ['npx', '--offline', 'csp-generator'] });
    expect(run.code).toBe(0);
    for (const name of Object.keys(COMMANDS)) expect(run.stdout).toMatch(new RegExp(`^ {2}${name} `, 'm'));
    const bare = await runCliProcess([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: csp-generator <command>');
  });

  it('documents the same exit codes in the README', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const table = [...readme.matchAll(/^\| (\d) \| (\w+)\b/gm)].map((m) => [Number(m[1]), m[2]]);
    expect(table).toEqual(Object.entries(EXIT).map(([word, code]) => [code, word]));
  });
});

describe('a wrong command line exits 2 and says what is wrong', () => {
  it.each([
    [['crawl', 'http://a.test/', '--bogus'], "csp-generator crawl: Unknown option '--bogus'."],
    [
      ['crawl', 'http://a.test/', '--format', 'xml'],
      "--format must be one of header, nginx, apache, iis, meta (got 'xml').",
    ],
    [
      ['crawl', 'http://a.test/', '--max-pages', '0'],
      "--max-pages must be a whole number from 1 to 500 (got '0').",
    ],
    [['crawl', 'ftp://a.test/'], "The URL must be an http(s) URL: 'ftp://a.test/'."],
    [['crawl'], 'csp-generator crawl: Missing argument.'],
    [['analyze'], '--domain <id> is required.'],
    [['export', '--config', 'c1'], '--format is required.'],
    [['export', '--config', 'c1', '--format', 'meta'], '--format must be one of apache, nginx, iis, header'],
    [['frobnicate'], "csp-generator: unknown command 'frobnicate'. Commands: crawl, check, analyze, export."],
  ])('%j', async (args, message) => {
    const run = await runCliProcess(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stdout).toBe('');
  });
});
