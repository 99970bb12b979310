// Runs the CLI as a pipeline does: its real entry point (package.json "bin") in a child process, with the
// given environment, collecting stdout, stderr and the exit code.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const CLI_ENTRY = resolve(import.meta.dirname, '../../bin/csp-generator.js');
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCliProcess(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number; command?: string[] } = {},
): Promise<CliRun> {
  const [file, ...pre] = options.command ?? [process.execPath, CLI_ENTRY];
  return new Promise((done, fail) => {
    const child = spawn(file!, [...pre, ...args], {
      cwd: REPO_ROOT,
      // Only what a CI step would have: no test runner variables leak into the CLI.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
