// Firefox verification benchmark (`npm run bench:firefox`): the fixture corpus analysed end to end (crawl,
// verification, one refinement, verification again) in Chromium alone and with Firefox as the second
// engine, alternating, BENCH_RUNS pairs (3). Firefox is kept running across analyses, as `npm start` keeps
// it (started before the first run; its start time is printed apart). Prints each run and the median time
// added by Firefox.
// Target: at most +50 % to an analysis' time. Needs Firefox (FIREFOX_PATH or /usr/bin/firefox-esr).
import { EngineVerifier } from '../src/crawler/engines-verify';
import { findFirefox } from '../src/crawler/firefox';
import { FirefoxKeeper } from '../src/crawler/firefox-verify';
import { analyseCorpus } from '../src/crawler/fixtures/engine-analysis';
import { startFixtureSites } from '../src/crawler/fixtures/sites';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const firefox = findFirefox(process.env.FIREFOX_PATH);
if ('unavailable' in firefox) {
  console.log(`skipped: needs firefox-esr (${firefox.unavailable})`);
  process.exit(0);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const sites = await startFixtureSites();
const keeper = new FirefoxKeeper(firefox.executablePath, { allowPrivateTargets: true });
const started = Date.now();
await keeper.session();
console.log(`Firefox started in ${((Date.now() - started) / 1000).toFixed(1)} s (once per npm start)`);
const alone: number[] = [];
const both: number[] = [];
try {
  for (let run = 1; run <= RUNS; run += 1) {
    const a = await analyseCorpus(
      sites,
      new EngineVerifier({ unavailable: 'Chromium alone' }, { allowPrivateTargets: true }),
    );
    const b = await analyseCorpus(sites, new EngineVerifier({ keeper }, { allowPrivateTargets: true }));
    for (const sample of b.final.samples) console.log(`  left: ${sample}`);
    alone.push(a.ms);
    both.push(b.ms);
    console.log(
      `run ${run}: Chromium alone ${(a.ms / 1000).toFixed(1)} s, with Firefox ${(b.ms / 1000).toFixed(1)} s (${b.final.violations} violations left)`,
    );
  }
} finally {
  await keeper.close();
  await sites.close();
}
const added = (median(both) - median(alone)) / median(alone);
console.log(
  `median: Chromium alone ${(median(alone) / 1000).toFixed(1)} s, with Firefox ${(median(both) / 1000).toFixed(1)} s: ${added >= 0 ? '+' : ''}${Math.round(added * 100)} % (target ≤ +50 %)`,
);
