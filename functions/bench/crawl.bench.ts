// Crawl benchmark (`npm run bench:crawl`): a generated 500-page loopback site, crawlDelay 0. Prints pages/s
// of our crawler (interaction and the stability re-render on, as in an analysis), of a naive baseline
// (one page at a time, a new page per URL, waitUntil 'networkidle0') and of a ceiling (the same pages
// loaded by the same number of tabs with no capture at all: goto, load event, next; before and after our
// crawl, the mean of both), all measured in the same run; the ratios; the time spent acting on pages,
// waiting for them to be quiet and re-rendering them (at the second viewport); the CPU our crawl used per
// kind of process (this one, Chromium's browser, renderers, GPU, utilities); and peak RSS of this process
// plus every Chromium process under it.
// Targets: ≥ 12 pages/s, ≥ 8× the baseline, ≥ 50 % of the ceiling, peak RSS < 1.5 GB.
//   BENCH_PAGES (500), BENCH_BASELINE_PAGES (60: the baseline runs ~2 pages/s), BENCH_CONCURRENCY (5)
import { readdirSync, readFileSync } from 'node:fs';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import { withBrowserSession } from '../src/crawler/browser-session';
import { runCrawl } from '../src/crawler/crawl';
import type { FixtureResponse, Origins } from '../src/crawler/fixtures/content';
import { PIXEL_PNG } from '../src/crawler/fixtures/content';
import { startFixtureSites } from '../src/crawler/fixtures/sites';
import { normalizeUrl } from '../src/crawler/url-normalize';

const PAGES = Number(process.env.BENCH_PAGES ?? 500);
const BASELINE_PAGES = Number(process.env.BENCH_BASELINE_PAGES ?? 60);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 5);
/** For diagnosis only (the targets are with both on): BENCH_INTERACTION=0, BENCH_RERENDER=0. */
const INTERACTION = process.env.BENCH_INTERACTION !== '0';
const RERENDER = process.env.BENCH_RERENDER !== '0';
const SKIP_BASELINE = process.env.BENCH_SKIP_BASELINE === '1';

/** A site of `count` pages, each with a script, a stylesheet, an image, inline code, a menu and 6 links. */
function generatedSite(count: number) {
  return (o: Origins): Record<string, FixtureResponse> => {
    const routes: Record<string, FixtureResponse> = {
      '/app.js': { type: 'text/javascript', body: 'document.documentElement.dataset.app = "1";' },
      '/style.css': { type: 'text/css', body: 'body { font-family: sans-serif; } .hero { color: #333; }' },
      '/logo.png': { type: 'image/png', body: PIXEL_PNG },
    };
    routes['/'] = { body: '<!doctype html><title>Home</title><a href="/p/0">start</a>' };
    for (let i = 0; i < count; i++) {
      const links = [1, 2, 3, 7, 31, 97].map((d) => `/p/${(i + d) % count}`);
      routes[`/p/${i}`] = {
        body: `<!doctype html><html><head><meta charset="utf-8"><title>Page ${i}</title>
<link rel="stylesheet" href="/style.css"><script src="/app.js"></script>
<style>.p${i % 10} { margin: ${i % 10}px; }</style></head>
<body><h1 class="hero" style="padding: ${i % 5}px">Page ${i}</h1><img src="/logo.png" alt="">
<img src="${o.cdn}/img/pixel.png" alt=""><p>${'Lorem ipsum dolor sit amet. '.repeat(20)}</p>
<nav>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</nav>
<details><summary>More</summary><p>Details of page ${i}.</p></details>
<button type="button" aria-expanded="false" onclick="this.setAttribute('aria-expanded', 'true')">Menu</button>
<script>window.page = ${i};</script></body></html>`,
      };
    }
    return routes;
  };
}

/** `/proc/<pid>/stat` figures of a process: RSS bytes (field 24, pages), CPU seconds (utime + stime, fields 14-15). */
interface ProcStat {
  rss: number;
  cpu: number;
}

/** The figures of `root` and all its descendants, by pid. */
function treeStats(root: number): Map<number, ProcStat> {
  const children = new Map<number, number[]>();
  const stats = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the parenthesised command name: state ppid …, field n of proc(5) at index n - 3.
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      stats.set(pid, { rss: Number(f[21]) * 4096, cpu: (Number(f[11]) + Number(f[12])) / 100 });
      const list = children.get(Number(f[1])) ?? [];
      list.push(pid);
      children.set(Number(f[1]), list);
    } catch {}
  }
  const tree = new Map<number, ProcStat>();
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    const stat = stats.get(pid);
    if (stat) tree.set(pid, stat);
    stack.push(...(children.get(pid) ?? []));
  }
  return tree;
}

const treeRss = (root: number) => [...treeStats(root).values()].reduce((sum, s) => sum + s.rss, 0);

/** What a process of the tree is: this one, Chromium's browser process, or its `--type=` (renderer, gpu-process…). */
function processKind(pid: number): string {
  if (pid === process.pid) return 'node';
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const type = args.find((a) => a.startsWith('--type='))?.slice('--type='.length);
    if (type) return type;
    return /chrom/i.test(args[0] ?? '') ? 'browser' : 'other';
  } catch {
    return 'other';
  }
}

/**
 * Samples this process's tree every 200 ms: the peak RSS, and the CPU each process used since the watch
 * began, summed per kind of process. A process's own CPU only (a reaped child's would count twice); one
 * that ends between samples loses at most 200 ms of it.
 */
function watchTree() {
  let peak = 0;
  const baseline = new Map([...treeStats(process.pid)].map(([pid, s]) => [pid, s.cpu]));
  const last = new Map<number, { kind: string; cpu: number }>();
  const sample = () => {
    let rss = 0;
    for (const [pid, s] of treeStats(process.pid)) {
      rss += s.rss;
      last.set(pid, { kind: last.get(pid)?.kind ?? processKind(pid), cpu: s.cpu - (baseline.get(pid) ?? 0) });
    }
    peak = Math.max(peak, rss);
  };
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const cpu = new Map<string, number>();
      for (const { kind, cpu: seconds } of last.values()) cpu.set(kind, (cpu.get(kind) ?? 0) + seconds);
      return { peak, cpu };
    },
  };
}

async function naiveBaseline(start: string, limit: number): Promise<{ pages: number; seconds: number }> {
  const browser = await puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
  });
  const queue = [start];
  const seen = new Set([normalizeUrl(start)]);
  let pages = 0;
  const t0 = performance.now();
  try {
    while (queue.length > 0 && pages < limit) {
      const url = queue.shift()!;
      const page = await browser.newPage();
      try {
        await page.goto(url, { waitUntil: 'networkidle0', timeout: 30_000 });
        const links = (await page.evaluate(
          'Array.from(document.querySelectorAll("a[href]"), (a) => a.href)',
        )) as string[];
        for (const link of links) {
          const key = normalizeUrl(link);
          if (key && !seen.has(key) && key.startsWith(new URL(start).origin)) {
            seen.add(key);
            queue.push(link);
          }
        }
        pages += 1;
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
  }
  return { pages, seconds: (performance.now() - t0) / 1000 };
}

/**
 * The ceiling: the same URLs, the same number of tabs in one browser through the same proxy, and nothing
 * but goto + load event per page. No capture, no interaction: what the browser alone can do here.
 */
async function ceiling(urls: string[], tabs: number): Promise<{ pages: number; seconds: number }> {
  return withBrowserSession({ allowPrivateTargets: true }, async ({ browser }) => {
    const queue = [...urls];
    const t0 = performance.now();
    let pages = 0;
    await Promise.all(
      Array.from({ length: tabs }, async () => {
        const page = await browser.newPage();
        try {
          for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
            await page.goto(url, { waitUntil: 'load', timeout: 30_000 });
            pages += 1;
          }
        } finally {
          await page.close();
        }
      }),
    );
    return { pages, seconds: (performance.now() - t0) / 1000 };
  });
}

async function main() {
  const sites = await startFixtureSites({ mainOnly: generatedSite(PAGES) });
  try {
    const start = `${sites.origins.main}/`;
    console.log(
      `site: ${PAGES} pages on ${sites.origins.main}; tabs: ${CONCURRENCY}; cores: ${(await import('node:os')).cpus().length}`,
    );

    // The ceiling is measured before and after our crawl, on the same URLs: a shared machine's speed drifts
    // within a run, and the mean of both sides is what our crawl is compared with.
    const siteUrls = [start, ...Array.from({ length: PAGES - 1 }, (_, i) => `${sites.origins.main}/p/${i}`)];
    const before = await ceiling(siteUrls, CONCURRENCY);
    const watch = watchTree();
    const t0 = performance.now();
    let lastPrint = 0;
    const { state, done } = await runCrawl({ url: start, maxPages: PAGES, crawlDelay: 0 }, null, {
      deadline: Date.now() + 15 * 60_000,
      allowPrivateTargets: true,
      concurrency: CONCURRENCY,
      ...(INTERACTION ? {} : { interactionBudgetMs: 0 }),
      rerender: RERENDER,
      onProgress: (p) => {
        if (p.pagesDone - lastPrint >= 50) {
          lastPrint = p.pagesDone;
          // The RSS at each step shows whether memory stays flat as the crawl goes on.
          const mb = (treeRss(process.pid) / 1024 ** 2).toFixed(0);
          process.stdout.write(`  crawled ${p.pagesDone}/${p.totalPages}, RSS ${mb} MB\n`);
        }
      },
    });
    const ours = (performance.now() - t0) / 1000;
    const { peak, cpu } = watch.stop();
    const observations = state.pages.reduce((n, p) => n + p.observations.length, 0);
    const oursRate = state.pages.length / ours;
    console.log(
      `ours:     ${state.pages.length} pages in ${ours.toFixed(1)} s = ${oursRate.toFixed(1)} pages/s (done: ${done}, errors: ${state.errors.length}, observations: ${observations})`,
    );
    if (state.errors.length) console.log('errors:', state.errors.slice(0, 5));
    console.log(
      `peak RSS: ${(peak / 1024 ** 2).toFixed(0)} MB (this process + Chromium tree; this process alone now: ${(process.memoryUsage().rss / 1024 ** 2).toFixed(0)} MB)`,
    );

    const { interactionMs, rerenderMs } = state.stats;
    console.log(
      `acting:   ${(interactionMs / 1000).toFixed(1)} s summed over tabs (${(interactionMs / Math.max(1, state.pages.length)).toFixed(0)} ms a page); writes answered ${state.stats.writesAnswered}, navigations blocked ${state.stats.navigationsBlocked}`,
    );
    const { quietMs } = state.stats;
    console.log(
      `quiet:    ${(quietMs / 1000).toFixed(1)} s summed over tabs (${(quietMs / Math.max(1, state.pages.length + state.rerenders.length)).toFixed(0)} ms a page, crawl and re-render) waiting for pages to be quiet after load, scrolling and acting`,
    );
    console.log(
      `re-render: ${state.rerenders.length} pages, ${(rerenderMs / 1000).toFixed(1)} s summed over tabs (${(rerenderMs / Math.max(1, state.rerenders.length)).toFixed(0)} ms a page)`,
    );

    const cores = (await import('node:os')).cpus().length;
    const used = [...cpu];
    const total = used.reduce((sum, [, seconds]) => sum + seconds, 0);
    console.log(
      `cpu:      ${used
        .filter(([, seconds]) => seconds >= 0.1)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, seconds]) => `${kind} ${seconds.toFixed(1)} s`)
        .join(', ')} (${((total / (ours * cores)) * 100).toFixed(0)} % of ${cores} cores' time)`,
    );

    const after = await ceiling(
      state.pages.map((p) => p.finalUrl),
      CONCURRENCY,
    );
    const top = { pages: before.pages + after.pages, seconds: before.seconds + after.seconds };
    const topRate = top.pages / top.seconds;
    console.log(
      `ceiling:  ${topRate.toFixed(1)} pages/s: ${(before.pages / before.seconds).toFixed(1)} before our crawl, ${(after.pages / after.seconds).toFixed(1)} after (same tabs, goto + load event only)`,
    );

    const baseline = SKIP_BASELINE
      ? { pages: 1, seconds: 1 / 1.5 }
      : await naiveBaseline(start, Math.min(BASELINE_PAGES, PAGES));
    const baseRate = baseline.pages / baseline.seconds;
    console.log(
      `baseline: ${baseline.pages} pages in ${baseline.seconds.toFixed(1)} s = ${baseRate.toFixed(2)} pages/s (one page at a time, new page each, networkidle0)`,
    );
    const ratio = oursRate / baseRate;
    const ofCeiling = oursRate / topRate;
    console.log(
      `ratio:    ${ratio.toFixed(1)}× the baseline, ${(ofCeiling * 100).toFixed(0)} % of the ceiling`,
    );
    const ok = (cond: boolean) => (cond ? 'ok' : 'MISSED');
    console.log(
      `targets:  ≥12 pages/s ${ok(oursRate >= 12)}, ≥8× baseline ${ok(ratio >= 8)}, ≥50 % of ceiling ${ok(ofCeiling >= 0.5)}, RSS < 1.5 GB ${ok(peak < 1.5 * 1024 ** 3)}`,
    );
  } finally {
    await sites.close();
  }
}

await main();
