// Policy generation benchmark (issue 3 target: 50,000 recorded resources under 100 ms).
// Run: npx tsx shared/bench/policy.bench.ts   (wired as `npm run bench:policy`)
// These machines are shared and noisy, so besides milliseconds it prints a ratio against a baseline measured
// in the same run: JSON.stringify of the same artifact, i.e. the cost of merely touching every observation.
import { syntheticArtifact } from '../src/csp/artifact-factory';
import { auditPolicy } from '../src/csp/audit';
import { generatePolicy } from '../src/csp/generate';
import { serializePolicy } from '../src/csp/serialize';
import { computeResourceStats } from '../src/csp/stats';
import { compareRuns } from '../src/watch/compare';
import { policyDrift } from '../src/watch/drift';
import { syntheticRuns } from '../src/watch/snapshot-factory';

const OBSERVATIONS = 50_000;
const ORIGINS = 200;
const INLINE_HASHES = 2_000;
const RUNS = 15;
const WARMUP = 3;
const TARGET_MS = 100;
/** Comparing two analyses of 500 pages (Watch: changes between runs, and drift). */
const COMPARE_PAGES = 500;
const COMPARE_SCRIPTS = 2_000;
const COMPARE_TARGET_MS = 200;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const tty = process.stdout.isTTY === true;

function time(label: string, fn: () => unknown): number {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const start = performance.now();
    fn();
    const ms = performance.now() - start;
    if (i >= WARMUP) samples.push(ms);
    if (tty) process.stdout.write(`\r${label}: run ${i + 1}/${WARMUP + RUNS}`);
  }
  if (tty) process.stdout.write('\r\x1b[K');
  return median(samples);
}

// Each run gets a fresh artifact object graph so no run benefits from another's caches.
const artifacts = Array.from({ length: WARMUP + RUNS }, (_, i) =>
  syntheticArtifact({
    seed: 42 + i,
    pages: 500,
    observations: OBSERVATIONS,
    origins: ORIGINS,
    inlineHashes: INLINE_HASHES,
  }),
);
const sample = artifacts[0]!;
const pages = sample.pages.length;
const observed = sample.pages.reduce((n, p) => n + p.observations.length, 0);
console.log(
  `artifact: ${observed} observations on ${pages} pages, ~${ORIGINS} origins, ${INLINE_HASHES} inline hashes`,
);

let k = 0;
const baselineMs = time('baseline JSON.stringify', () => JSON.stringify(artifacts[k++ % artifacts.length]));
k = 0;
const allowlistMs = time('generatePolicy allowlist', () =>
  generatePolicy(artifacts[k++ % artifacts.length]!),
);
k = 0;
const strictMs = time('generatePolicy strict', () =>
  generatePolicy(artifacts[k++ % artifacts.length]!, { mode: 'strict', nonce: 'a'.repeat(64) }),
);
const rules = generatePolicy(sample).rules;
const audit = auditPolicy(rules);
const auditMs = time('auditPolicy', () => auditPolicy(rules));
k = 0;
const statsMs = time('computeResourceStats', () =>
  computeResourceStats(artifacts[k++ % artifacts.length]!, audit),
);

const runs = Array.from({ length: WARMUP + RUNS }, () =>
  syntheticRuns({ pages: COMPARE_PAGES, scripts: COMPARE_SCRIPTS, policy: rules }),
);
k = 0;
const compareMs = time('compareRuns + policyDrift', () => {
  const [before, after] = runs[k++ % runs.length]!;
  compareRuns(before, after);
  policyDrift(after.headers, { rules, reportOnly: false });
});
k = 0;
const compareBaselineMs = time('baseline JSON.stringify of two runs', () =>
  JSON.stringify(runs[k++ % runs.length]),
);

const value = serializePolicy(rules);
const fmt = (ms: number) => `${ms.toFixed(1).padStart(7)} ms`;
console.log(`baseline (JSON.stringify)    ${fmt(baselineMs)}`);
console.log(
  `generatePolicy (allowlist)   ${fmt(allowlistMs)}   ${(allowlistMs / baselineMs).toFixed(2)}× baseline`,
);
console.log(
  `generatePolicy (strict)      ${fmt(strictMs)}   ${(strictMs / baselineMs).toFixed(2)}× baseline`,
);
console.log(`auditPolicy                  ${fmt(auditMs)}   ${(auditMs / baselineMs).toFixed(2)}× baseline`);
console.log(`computeResourceStats         ${fmt(statsMs)}   ${(statsMs / baselineMs).toFixed(2)}× baseline`);
console.log(`policy: ${Object.keys(rules).length} directives, ${value.length} characters`);
console.log(
  `compare two runs             ${fmt(compareMs)}   ${(compareMs / compareBaselineMs).toFixed(2)}× their JSON.stringify (${fmt(compareBaselineMs).trim()}); ${COMPARE_PAGES} pages, ${COMPARE_SCRIPTS} scripts`,
);
console.log(
  `target: comparing two ${COMPARE_PAGES}-page analyses under ${COMPARE_TARGET_MS} ms — ${compareMs < COMPARE_TARGET_MS ? 'met' : 'NOT met'}`,
);
if (compareMs >= COMPARE_TARGET_MS) process.exitCode = 1;
const worst = Math.max(allowlistMs, strictMs);
console.log(
  `target: generatePolicy under ${TARGET_MS} ms for ${OBSERVATIONS} observations — ${worst < TARGET_MS ? 'met' : 'NOT met'} (median of ${RUNS} runs)`,
);
if (worst >= TARGET_MS) process.exitCode = 1;
