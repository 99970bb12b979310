// The crawler can only hurt its own analysis. A crawl of X whose writer calls are hijacked the way a page
// that took over the crawler would (X's token used on another user's running analysis Y, a forged token on
// X): every hijacked write is refused, Y and its owner are untouched, and X still completes. And Chromium
// starts without the process' environment: no AWS credentials, no secrets.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CompletedRun, ProgressReport } from '../crawl-writer/requests';
import { type CrawlWriter, inProcessCrawlWriter, type RunCredentials } from '../crawl-writer/writer';
import { getCounters } from '../store/achievements';
import { getAnalysis } from '../store/analyses';
import { claimAnalysis } from '../store/analysis-runs';
import { getKnowledge } from '../store/knowledge';
import { newRunToken, runTokenDigest } from '../store/run-token';
import { registeredClient, startTestServer } from '../testing/api-server';
import { loopbackCrawlHandler } from '../testing/crawl-handler';
import { perTestServers } from '../testing/per-test-servers';
import { sqsRecord } from '../testing/sqs-events';
import { CHROMIUM_ENV_NAMES, closeBrowser, launchBrowser } from './browser';
import { startFixtureSites } from './fixtures/sites';

const live = perTestServers();

/** Every process below `pid` (Chromium's zygote, renderers, GPU and network services). */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {}
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function environOf(pid: number): Map<string, string> {
  const entries = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
}

describe('crawler confinement', () => {
  it.runIf(process.platform === 'linux')(
    "starts Chromium with none of the process' environment: no AWS credentials, no secrets",
    async () => {
      const canary = `canary-${newRunToken()}`;
      const planted = {
        AWS_ACCESS_KEY_ID: 'AKIACANARY',
        AWS_SECRET_ACCESS_KEY: canary,
        AWS_SESSION_TOKEN: canary,
        SESSION_SECRET: canary,
        TABLE_NAME: canary,
      };
      const saved = Object.fromEntries(Object.keys(planted).map((k) => [k, process.env[k]]));
      Object.assign(process.env, planted);
      const browser = await launchBrowser({ proxyUrl: 'http://127.0.0.1:9' });
      try {
        // A renderer too: open a page.
        await (await browser.newPage()).goto('about:blank');
        const pid = browser.process()?.pid;
        expect(pid).toBeDefined();
        const pids = [pid!, ...descendants(pid!)];
        expect(pids.length).toBeGreaterThan(2);
        for (const p of pids) {
          const env = environOf(p);
          // Nothing of ours beyond the allowed names (same name, same value). Chromium sets a few variables
          // of its own for some children (DBUS_SESSION_BUS_ADDRESS, FC_FONTATIONS), seen when such a child
          // is up at the moment of the check: they are not ours and carry nothing of this process.
          expect(
            [...env]
              .filter(([k, v]) => process.env[k] === v)
              .map(([k]) => k)
              .filter((k) => !(CHROMIUM_ENV_NAMES as readonly string[]).includes(k)),
            String(p),
          ).toEqual([]);
          expect(
            Object.keys(planted).filter((k) => env.has(k)),
            String(p),
          ).toEqual([]);
          expect([...env.values()].some((v) => v.includes(canary) || v.includes('AKIACANARY'))).toBe(false);
        }
      } finally {
        await closeBrowser(browser);
        for (const [k, v] of Object.entries(saved)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      }
    },
  );

  it("refuses a crawl of X every write to another user's analysis Y and with a forged token; X completes", async () => {
    live.sites = await startFixtureSites({
      mainOnly: () => ({
        '/': {
          type: 'text/html',
          body: '<!doctype html><title>x</title><a href="/a">a</a><script>1</script>',
        },
        '/a': { type: 'text/html', body: '<!doctype html><title>a</title>' },
      }),
    });
    // The server's own queue delivers to nothing: the test hands X's message to the crawl handler itself.
    live.server = await startTestServer({ crawlHandler: () => async () => ({ batchItemFailures: [] }) });
    const s = live.server;
    const start = async () => {
      const { client } = await registeredClient(s.url);
      const domain = await (
        await client.post('/api/domains', { name: 'Site', url: `${live.sites!.origins.main}/` })
      ).json();
      const res = await client.post('/api/csp-analyses', {
        domainId: domain.id,
        crawlRequest: { maxPages: 2, crawlDelay: 0 },
      });
      return (await res.json()).id as string;
    };
    const x = await start();
    const y = await start();
    // Y is crawling in another run, with a token X's crawler never sees.
    await claimAnalysis(s.deps.db, y, runTokenDigest(newRunToken()), 10 * 60_000);
    const yBefore = await getAnalysis(s.deps.db, y);
    const yCounters = await getCounters(s.deps.db, yBefore!.userId);

    // What a crawler under a page's control would do with every call it makes: the same write on Y with X's
    // token, and on X with a token of its own making.
    const real = inProcessCrawlWriter(s.deps.db, s.deps.logger);
    const hijacked: { what: string; accepted: boolean }[] = [];
    const attempt = async (what: string, write: Promise<boolean>) =>
      hijacked.push({ what, accepted: await write });
    const onY = (run: RunCredentials) => ({ analysisId: y, runToken: run.runToken });
    const forged = (run: RunCredentials) => ({ analysisId: run.analysisId, runToken: newRunToken() });
    const hostile: CrawlWriter = {
      async progress(run, report: ProgressReport) {
        await attempt('progress Y', real.progress(onY(run), { ...report, progress: 99 }));
        await attempt('progress forged', real.progress(forged(run), report));
        return real.progress(run, report);
      },
      async fail(run, errors) {
        await attempt('fail Y', real.fail(onY(run), errors));
        return real.fail(run, errors);
      },
      async complete(run, result: CompletedRun) {
        await attempt('fail Y', real.fail(onY(run), ['hijacked']));
        await attempt('complete Y', real.complete(onY(run), result));
        await attempt('complete forged', real.complete(forged(run), result));
        return real.complete(run, result);
      },
    };
    const handler = loopbackCrawlHandler(s.deps, live.blobDir, {
      crawlOptions: { rerender: false },
      writer: hostile,
    });
    expect(await handler({ Records: [sqsRecord(JSON.stringify({ analysisId: x }))] })).toEqual({
      batchItemFailures: [],
    });

    expect(hijacked.map((h) => h.what)).toEqual(
      expect.arrayContaining(['progress Y', 'complete Y', 'complete forged']),
    );
    expect(hijacked.filter((h) => h.accepted)).toEqual([]);
    const xAfter = await getAnalysis(s.deps.db, x);
    expect(xAfter).toMatchObject({ status: 'completed', totalPages: 2 });
    // Y, its knowledge and its owner's counters are as they were.
    const yAfter = await getAnalysis(s.deps.db, y);
    expect(yAfter).toEqual(yBefore);
    expect(await getKnowledge(s.deps.db, y)).toBeNull();
    expect(await getCounters(s.deps.db, yAfter!.userId)).toEqual(yCounters);
    expect((await getCounters(s.deps.db, xAfter!.userId)).analyses).toBe(1);
    // Their checkpoints are named by random ids, not by the analysis ids a crawler could guess.
    expect(xAfter?.checkpointId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(xAfter?.checkpointId).not.toBe(yAfter?.checkpointId);
    expect(xAfter?.checkpointId).not.toContain(x);
  }, 120_000);
});
