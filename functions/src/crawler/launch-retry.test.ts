// The launch retry against puppeteer's real report: a "browser" whose first process kills itself with a
// signal before writing a line (what was seen in CI), then starts the real Chromium.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumEnvironment } from './browser';
import { diedWhileStarting, launchWithRetry } from './launch-retry';

const dir = mkdtempSync(join(tmpdir(), 'csp-launch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A wrapper that dies on SIGKILL the first `deaths` times it runs, then execs Chromium. */
async function flakyBrowser(deaths: number): Promise<{ path: string; starts: () => number }> {
  const real = await chromium.executablePath();
  const counter = join(dir, `starts-${deaths}`);
  const path = join(dir, `browser-${deaths}.sh`);
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      `echo x >> '${counter}'`,
      `if [ "$(wc -l < '${counter}')" -le ${deaths} ]; then kill -KILL $$; fi`,
      `exec '${real}' "$@"`,
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return {
    path,
    starts: () => (existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').length - 1 : 0),
  };
}

function launch(executablePath: string) {
  return puppeteer.launch({
    executablePath,
    env: chromiumEnvironment(process.env),
    args: chromium.args.filter((a) => a !== '--single-process'),
    headless: true,
  });
}

describe('browser launch retry', () => {
  it('launches again when the first process died on a signal while starting, and the browser works', async () => {
    const flaky = await flakyBrowser(1);
    const browser = await launchWithRetry(() => launch(flaky.path));
    try {
      expect(flaky.starts()).toBe(2);
      expect(await browser.version()).toMatch(/Chrom/);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it('tries only once more: a browser that keeps dying is reported, after two starts', async () => {
    const flaky = await flakyBrowser(5);
    const error = await launchWithRetry(() => launch(flaky.path)).catch((e: unknown) => e);
    expect(diedWhileStarting(error)).toBe(true);
    expect(flaky.starts()).toBe(2);
  }, 60_000);

  it('does not retry other failures (a missing binary)', async () => {
    let calls = 0;
    const error = await launchWithRetry(() => {
      calls++;
      return launch(join(dir, 'no-such-browser'));
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(diedWhileStarting(error)).toBe(false);
    expect(calls).toBe(1);
  }, 60_000);
});
