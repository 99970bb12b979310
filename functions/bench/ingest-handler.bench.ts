// The ingest handler's own rate against a bare node:http server, alone (`npx tsx
// functions/bench/ingest-handler.bench.ts`): the "handler, closed loop" phase of ingest.bench.ts without
// the end-to-end phases, repeated BENCH_ROUNDS times (baseline and handler alternating, so a busy moment of
// a shared machine hits both), for measuring a change to the handler and profiling it
// (`node --cpu-prof --import tsx …`: the load generator runs in a process of its own, unprofiled). Next to
// the rates, it gives the server process's CPU time per answered report (warm-up included), which a busy
// machine disturbs less than the rate.
//   BENCH_SECONDS (5 per phase), BENCH_ROUNDS (2), BENCH_CONNECTIONS (32), BENCH_CLIENTS (50),
//   BENCH_HANDLER_ONLY=1 (no baseline: a profile of the handler alone)
import { fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { ReportMessage } from '@csp/shared/schemas/report';
import { serve } from '@hono/node-server';
import { loadConfig } from '../src/config';
import { startDynamoLocal } from '../src/local/dynamo-local';
import { createLogger } from '../src/logger';
import type { DurableQueue } from '../src/queue/queue';
import { createIngestApp } from '../src/report-ingest/app';
import { createDb } from '../src/store/db';
import { createDomain } from '../src/store/domains';
import { ensureTable } from '../src/store/table';
import type { LoadOptions, LoadResult } from './ingest-load';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const HANDLER_ONLY = process.env.BENCH_HANDLER_ONLY === '1';

let seq = 0;
function load(url: string, uuid: string): Promise<LoadResult> {
  const options: LoadOptions = {
    url,
    uuid,
    durationMs: SECONDS * 1000,
    connections: CONNECTIONS,
    clients: CLIENTS,
    seqStart: seq,
    warmupMs: 1000,
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

/** A closed-loop run, with this process's CPU time per report answered 204. */
async function measured(url: string, uuid: string): Promise<{ result: LoadResult; cpuUs: number }> {
  const before = process.cpuUsage();
  const result = await load(url, uuid);
  const used = process.cpuUsage(before);
  return { result, cpuUs: (used.user + used.system) / Math.max(1, result.acked) };
}

const listening = (server: Server) =>
  new Promise<string>((ok) => {
    const done = () => ok(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    if (server.listening) done();
    else server.once('listening', done);
  });
const rate = (r: LoadResult) => (r.measuredAcks / r.elapsedMs) * 1000;
const non204 = (r: LoadResult) =>
  Object.entries(r.statuses)
    .filter(([s]) => s !== '204')
    .map(([s, n]) => `${s}×${n}`)
    .join(' ') || '0';

async function main() {
  const dynamo = await startDynamoLocal({ inMemory: true });
  const db = createDb({ table: 'bench', endpoint: dynamo.endpoint, region: 'local' });
  try {
    await ensureTable(db);
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
    const bare = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(204);
        res.end();
      });
    }).listen(0, '127.0.0.1');
    const bareUrl = await listening(bare);
    let queued = 0;
    const instant: DurableQueue<ReportMessage> = {
      sendAll: async (messages) => {
        queued += messages.reduce((n, m) => n + m.reports.length, 0);
      },
    };
    const app = createIngestApp({ db, config, logger: createLogger('silent'), queue: instant });
    const handler = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    const handlerUrl = await listening(handler);
    const ratios: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const b = HANDLER_ONLY ? null : await measured(bareUrl, domain.uuid);
      const h = await measured(handlerUrl, domain.uuid);
      const handlerLine = `handler ${rate(h.result).toFixed(0)}/s, ${h.cpuUs.toFixed(1)} µs CPU a report (non-204 ${non204(h.result)})`;
      if (!b) {
        console.log(`round ${round}: ${handlerLine}`);
        continue;
      }
      ratios.push(rate(h.result) / rate(b.result));
      console.log(
        `round ${round}: baseline ${rate(b.result).toFixed(0)}/s, ${b.cpuUs.toFixed(1)} µs CPU a report; ${handlerLine}; rate ${((rate(h.result) / rate(b.result)) * 100).toFixed(1)} %`,
      );
    }
    if (ratios.length > 0) {
      const mean = ratios.reduce((s, r) => s + r, 0) / ratios.length;
      console.log(`handler / baseline, mean of ${ROUNDS}: ${(mean * 100).toFixed(1)} %`);
    }
    bare.close();
    handler.close();
    if (queued === 0) throw new Error('the handler queued nothing');
  } finally {
    db.doc.destroy();
    await dynamo.stop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
