// Report ingestion benchmark (`npm run bench:ingest`), over loopback HTTP in one run:
//   baseline  a bare node:http server that reads the body and answers 204;
//   handler   the ingest app (validation, noise, rate limits, cached domain lookup) with a queue that
//             accepts at once: the handler's own cost;
//   e2e       the ingest app, the durable file queue (write + fdatasync before the 204) and the batch
//             consumer writing to DynamoDB Local, as `npm start` runs it.
//   flood     the same end to end with every report naming a source of its own (a flood of made-up origins,
//             on a domain of its own): the hourly cap of new groups keeps its table writes bounded;
//   list      the owner's group list over 50,000 stored groups (the counters read, the top groups kept, the
//             answer serialised), in process, for its time and size.
// Each is measured closed loop (the highest rate, and the latency at that load); the bare server and the
// handler also open loop at a quarter of the baseline's rate (at half, the load generator itself
// cannot keep time on two cores), on the same schedule, to show latency at a fixed
// load next to what the load generator itself can time on this machine. After e2e, every report answered 204 must be counted (lost = 0), and the
// table writes (items written, from the DynamoDB client's own requests) are given per 1,000 reports.
// Targets: handler ≥ 50 % of the baseline's rate with p99 < 20 ms at that load; e2e ≤ 50 writes / 1,000;
// flood: 0 lost, at most newGroupsPerDomainHour groups counted individually; list < 1 MB and < 2 s.
// Rate limits are raised for the run (one load generator plays every client).
//   BENCH_SECONDS (5 per phase), BENCH_CONNECTIONS (32), BENCH_CLIENTS (50)
// The handler phase alone, repeated and with CPU time per report (for profiling a change to the handler):
// functions/bench/ingest-handler.bench.ts.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hourOf } from '@csp/shared/reports/group';
import { REPORT_LIMITS } from '@csp/shared/reports/limits';
import { topGroups } from '@csp/shared/reports/top-groups';
import type { ReportMessage } from '@csp/shared/schemas/report';
import { serve } from '@hono/node-server';
import { loadConfig } from '../src/config';
import { startDynamoLocal } from '../src/local/dynamo-local';
import { createLogger } from '../src/logger';
import { LocalDurableQueue } from '../src/queue/local-durable-queue';
import type { DurableQueue } from '../src/queue/queue';
import { createIngestApp } from '../src/report-ingest/app';
import { createReportConsumer } from '../src/report-ingest/consumer';
import { batchPut } from '../src/store/batch';
import { createDb, type Db } from '../src/store/db';
import { createDomain } from '../src/store/domains';
import { windowCounts, windowStats } from '../src/store/report-count-windows';
import { counterItem, counterShard } from '../src/store/report-counts';
import { ensureTable } from '../src/store/table';
import type { LoadOptions, LoadResult } from './ingest-load';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);

let seq = 0;
function load(url: string, uuid: string, over: Partial<LoadOptions> = {}): Promise<LoadResult> {
  const options: LoadOptions = {
    url,
    uuid,
    durationMs: SECONDS * 1000,
    connections: CONNECTIONS,
    clients: CLIENTS,
    seqStart: seq,
    warmupMs: 1000,
    ...over,
  };
  seq += 10_000_000;
  const child = fork(fileURLToPath(new URL('./ingest-load.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
  });
  child.send(options);
  return new Promise((ok, fail) => {
    child.once('message', (m: LoadResult | { error: string }) => {
      if ('error' in m) fail(new Error(m.error));
      else ok(m);
    });
    child.once('error', fail);
  });
}

function listen(server: Server): Promise<string> {
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}
const close = (server: Server) => new Promise<void>((ok) => server.close(() => ok()));

/** Counts items the DynamoDB client writes (each Put, Update, Delete, batch or transaction item). */
function countWrites(db: Db): { items: number } {
  const counter = { items: 0 };
  db.doc.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      const command = context.commandName ?? '';
      if (command === 'BatchWriteItemCommand') {
        const items = input.RequestItems as Record<string, unknown[]>;
        for (const list of Object.values(items)) counter.items += list.length;
      } else if (command === 'TransactWriteItemsCommand') {
        counter.items += (input.TransactItems as unknown[]).length;
      } else if (/^(Put|Update|Delete)ItemCommand$/.test(command)) {
        counter.items += 1;
      }
      return next(args);
    },
    { step: 'initialize', name: 'benchWriteCounter' },
  );
  return counter;
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface Row {
  name: string;
  result: LoadResult;
  extra?: string;
}
const rate = (r: LoadResult) => (r.measuredAcks / r.elapsedMs) * 1000;

function print(rows: Row[], baseline: LoadResult) {
  const header = ['phase', 'reports/s', 'p50 ms', 'p99 ms', 'vs baseline', 'non-204', ''];
  const lines = rows.map(({ name, result, extra }) => {
    const bad = Object.entries(result.statuses)
      .filter(([s]) => s !== '204')
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    return [
      name,
      rate(result).toFixed(0),
      pct(result.latencies, 50).toFixed(2),
      pct(result.latencies, 99).toFixed(2),
      `${((rate(result) / rate(baseline)) * 100).toFixed(0)} %`,
      bad || '0',
      extra ?? '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  for (const l of [header, ...lines]) console.log(l.map((c, i) => c.padEnd(widths[i]!)).join('  '));
}

async function main() {
  const logger = createLogger('silent');
  const dynamo = await startDynamoLocal({ inMemory: true });
  const db = createDb({ table: 'bench', endpoint: dynamo.endpoint, region: 'local' });
  await ensureTable(db);
  const writes = countWrites(db);
  const domain = await createDomain(db, 'bench-user', {
    name: 'Shop',
    url: 'https://shop.example.com',
    isActive: true,
  });
  const config = loadConfig({
    ...process.env,
    REPORT_CLIENT_PER_MINUTE: '1000000000',
    REPORT_DOMAIN_PER_SECOND: '1000000000',
  });
  const rows: Row[] = [];
  const queueDir = mkdtempSync(join(tmpdir(), 'csp-bench-queue-'));
  try {
    // Baseline: the least any HTTP endpoint on this machine can do.
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(204);
        res.end();
      });
    });
    const bareUrl = await listen(bare);
    const baseline = await load(bareUrl, domain.uuid);
    const quarter = Math.round(rate(baseline) / 4);
    // The same schedule against the bare server: how precise this machine's open-loop timing is.
    const bareAtHalf = await load(bareUrl, domain.uuid, { rate: quarter });
    await close(bare);
    rows.push({ name: 'baseline (node:http 204)', result: baseline });
    rows.push({ name: `baseline at ${quarter}/s (open loop)`, result: bareAtHalf });

    // The handler alone: the queue accepts at once.
    let queued = 0;
    const instant: DurableQueue<ReportMessage> = {
      sendAll: async (messages) => {
        queued += messages.reduce((n, m) => n + m.reports.length, 0);
      },
    };
    const handlerApp = createIngestApp({ db, config, logger, queue: instant });
    const handlerServer = serve({ fetch: handlerApp.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((r) => handlerServer.once('listening', r));
    const handlerUrl = `http://127.0.0.1:${(handlerServer.address() as AddressInfo).port}`;
    const handler = await load(handlerUrl, domain.uuid);
    rows.push({ name: 'handler, closed loop', result: handler });
    const atHalf = await load(handlerUrl, domain.uuid, { rate: quarter });
    rows.push({ name: `handler at ${quarter}/s (open loop)`, result: atHalf });
    await close(handlerServer);

    // End to end: the durable queue and the consumer on DynamoDB Local.
    const queue = new LocalDurableQueue<ReportMessage>({
      dir: queueDir,
      handler: createReportConsumer({ db, logger }),
      logger,
    });
    queue.start();
    const e2eApp = createIngestApp({ db, config, logger, queue });
    const e2eServer = serve({ fetch: e2eApp.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((r) => e2eServer.once('listening', r));
    const e2eUrl = `http://127.0.0.1:${(e2eServer.address() as AddressInfo).port}`;
    const writesBefore = writes.items;
    const e2eStart = Date.now();
    const e2e = await load(e2eUrl, domain.uuid);
    const drainStart = Date.now();
    await queue.idle();
    const drainMs = Date.now() - drainStart;
    await queue.close();
    await close(e2eServer);
    const written = writes.items - writesBefore;
    const hours = [...new Set([hourOf(new Date(e2eStart).toISOString()), hourOf(new Date().toISOString())])];
    const stats = await windowStats(db, domain.id, hours[0]!, hours.at(-1)!);
    const counted = stats.reduce((n, s) => n + s.received, 0);
    const stored = stats.reduce((n, s) => n + s.stored, 0);
    const lost = e2e.acked - counted;
    rows.push({
      name: 'end to end (queue + consumer)',
      result: e2e,
      extra: `lost ${lost}, ${((written / e2e.acked) * 1000).toFixed(1)} table writes / 1,000 reports, ${stored} raw kept, drained ${drainMs} ms after`,
    });

    // A flood of distinct sources, end to end, on a domain of its own (its hour's cap of new groups unused).
    const floodDomain = await createDomain(db, 'bench-user', {
      name: 'Flooded',
      url: 'https://shop.example.com',
      isActive: true,
    });
    const floodQueue = new LocalDurableQueue<ReportMessage>({
      dir: join(queueDir, 'flood'),
      handler: createReportConsumer({ db, logger }),
      logger,
    });
    floodQueue.start();
    const floodApp = createIngestApp({ db, config, logger, queue: floodQueue });
    const floodServer = serve({ fetch: floodApp.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    await new Promise((r) => floodServer.once('listening', r));
    const floodUrl = `http://127.0.0.1:${(floodServer.address() as AddressInfo).port}`;
    const floodWritesBefore = writes.items;
    const floodStart = Date.now();
    const flood = await load(floodUrl, floodDomain.uuid, { distinctSources: true });
    await floodQueue.idle();
    await floodQueue.close();
    await close(floodServer);
    const floodWritten = writes.items - floodWritesBefore;
    const floodHours = [
      ...new Set([hourOf(new Date(floodStart).toISOString()), hourOf(new Date().toISOString())]),
    ];
    const [floodStats, floodCounts] = await Promise.all([
      windowStats(db, floodDomain.id, floodHours[0]!, floodHours.at(-1)!),
      windowCounts(db, floodDomain.id, floodHours[0]!, floodHours.at(-1)!),
    ]);
    const floodCounted = floodStats.reduce((n, s) => n + s.received, 0);
    const floodKept = floodStats.reduce((n, s) => n + s.stored, 0);
    const floodLost = flood.acked - floodCounted;
    // What an hour of flood costs once (its capped new groups and raw-report budget), and what it costs
    // per report after that.
    const once = floodCounts.groups.length + Math.min(floodKept, REPORT_LIMITS.rawBudgetPerDomainHour);
    const perThousand = (floodWritten / flood.acked) * 1000;
    const steady = ((floodWritten - once) / flood.acked) * 1000;
    rows.push({
      name: 'flood: every report a new source',
      result: flood,
      extra: `lost ${floodLost}, ${perThousand.toFixed(1)} table writes / 1,000 reports (${steady.toFixed(1)} past the hour's first ${once} writes), ${floodCounts.groups.length} groups counted individually, ${floodCounts.overCap} reports in the "other" counter`,
    });

    // The owner's list over 50,000 stored groups.
    const listDomain = await createDomain(db, 'bench-user', {
      name: 'Listed',
      url: 'https://shop.example.com',
      isActive: true,
    });
    const hour = hourOf(new Date().toISOString());
    const at = new Date().toISOString();
    const groups = Array.from({ length: 50_000 }, (_, i) => {
      const directive = i % 3 === 0 ? 'script-src-elem' : 'img-src';
      const source = `https://host-${i}.sources.example`;
      const shard = counterShard(directive, source);
      const hits = 1 + ((i * 7919) % 1000);
      return counterItem(listDomain.id, {
        shard,
        hour,
        directive,
        source,
        hits,
        firstSeen: at,
        lastSeen: at,
      });
    });
    for (let i = 0; i < groups.length; i += 5000) {
      await Promise.all(
        [0, 1, 2, 3].map((k) => batchPut(db, groups.slice(i + k * 1250, i + (k + 1) * 1250))),
      );
    }
    const listTimes: number[] = [];
    let listBytes = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const counts = await windowCounts(db, listDomain.id, hour, hour);
      const top = topGroups(counts.groups, { overCap: counts.overCap });
      listBytes = Buffer.byteLength(JSON.stringify({ counts: top.shown, other: top.other }));
      listTimes.push(performance.now() - t0);
    }
    const listMs = [...listTimes].sort((a, b) => a - b)[1]!;

    console.log(
      `\nReport ingestion, ${SECONDS} s a phase, ${CONNECTIONS} requests in flight, ${CLIENTS} client addresses, loopback\n`,
    );
    print(rows, baseline);
    console.log(
      `\nOwner's list at 50,000 groups: ${(listBytes / 1024).toFixed(1)} KB of groups in ${listMs.toFixed(0)} ms (median of 3: ${listTimes.map((t) => t.toFixed(0)).join(', ')} ms)`,
    );
    const ok = {
      handlerRate: rate(handler) / rate(baseline) >= 0.5,
      handlerP99: pct(handler.latencies, 99) < 20,
      lost: lost === 0,
      writes: (written / e2e.acked) * 1000 <= 50,
      floodLost: floodLost === 0,
      floodGroups: floodCounts.groups.length <= REPORT_LIMITS.newGroupsPerDomainHour * floodHours.length,
      list: listMs < 2000 && listBytes < 1024 * 1024,
    };
    const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
    console.log(
      `\nTargets: handler ≥ 50 % of the baseline's rate ${verdict(ok.handlerRate)}, with p99 < 20 ms at that load ${verdict(ok.handlerP99)}; lost = 0 ${verdict(ok.lost)}; ≤ 50 table writes / 1,000 reports ${verdict(ok.writes)}; flood: lost = 0 ${verdict(ok.floodLost)}, new groups capped ${verdict(ok.floodGroups)}; list < 1 MB and < 2 s ${verdict(ok.list)}`,
    );
    console.log(
      `Open loop at a quarter of the baseline's rate: handler p99 ${pct(atHalf.latencies, 99).toFixed(1)} ms, against ${pct(bareAtHalf.latencies, 99).toFixed(1)} ms for the bare server on the same schedule (the load generator shares the machine's ${cpus().length} cores).`,
    );
    if (queued === 0) throw new Error('the handler phase queued nothing');
  } finally {
    rmSync(queueDir, { recursive: true, force: true });
    db.doc.destroy();
    await dynamo.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
