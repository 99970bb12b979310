// The load generator of `npm run bench:ingest`, in a process of its own so that it does not share an event
// loop with the server it measures. Closed loop (`connections` requests always in flight) measures
// the highest rate; open loop (`rate` requests a second on a fixed schedule) measures latency at a given
// load, from the scheduled time so a stalled server cannot hide its queueing (no coordinated omission).
// Every report is distinct (its line number is a sequence number) and clients vary over 127.0.0.x, as
// many visitors of one site would.
import { Agent, request } from 'node:http';

export interface LoadOptions {
  url: string;
  uuid: string;
  durationMs: number;
  /** Closed loop: requests kept in flight. */
  connections: number;
  /** Open loop: requests a second (closed loop when absent). */
  rate?: number;
  /** Client addresses 127.0.0.2 … 127.0.0.(1 + clients). */
  clients: number;
  /** The first sequence number (phases do not repeat each other's reports). */
  seqStart: number;
  /** Sent before measuring (connections opened, code warmed up); acked, but not timed. */
  warmupMs: number;
  /** Every report names a source of its own (a flood of made-up origins) instead of one of four. */
  distinctSources?: boolean;
}

export interface LoadResult {
  sent: number;
  /** Every 204, warm-up included (each is a report the product must have). */
  acked: number;
  /** 204s of requests sent in the measured window (the rate). */
  measuredAcks: number;
  statuses: Record<string, number>;
  /** Milliseconds, sorted. */
  latencies: number[];
  elapsedMs: number;
}

const DIRECTIVES = ['script-src-elem', 'img-src', 'style-src-elem', 'connect-src', 'font-src'];
const SOURCES = [
  'https://cdn.example.net/lib.js',
  'https://pixel.tracker.example/p.gif',
  'https://fonts.example.org/a.woff2',
  'https://api.example.io/v1/x',
];

function body(seq: number, distinct = false): string {
  return JSON.stringify({
    'csp-report': {
      'document-uri': `https://shop.example.com/p/${seq % 50}`,
      'violated-directive': DIRECTIVES[seq % DIRECTIVES.length],
      'blocked-uri': distinct ? `https://s${seq}.flood.example/x.js` : SOURCES[seq % SOURCES.length],
      'line-number': seq,
      'column-number': 7,
      'original-policy': "default-src 'self'; report-uri /api/uri-report",
    },
  });
}

async function run(o: LoadOptions): Promise<LoadResult> {
  const target = new URL(o.url);
  const path = `/api/uri-report?domain=${o.uuid}`;
  const agents = Array.from(
    { length: o.clients },
    (_, i) => new Agent({ keepAlive: true, maxSockets: 64, localAddress: `127.0.0.${2 + i}` } as never),
  );
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let sent = 0;
  let acked = 0;
  let measuredAcks = 0;
  const begin = performance.now();
  const start = begin + o.warmupMs;
  const end = start + o.durationMs;
  let seq = o.seqStart;

  const post = (scheduledAt: number) =>
    new Promise<void>((done) => {
      const n = seq++;
      const data = body(n, o.distinctSources);
      sent++;
      const req = request(
        {
          hostname: target.hostname,
          port: target.port,
          path,
          method: 'POST',
          agent: agents[n % agents.length],
          headers: { 'content-type': 'application/csp-report', 'content-length': Buffer.byteLength(data) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const measured = scheduledAt >= start;
            if (measured) latencies.push(performance.now() - scheduledAt);
            statuses[res.statusCode ?? 0] = (statuses[res.statusCode ?? 0] ?? 0) + 1;
            if (res.statusCode === 204) {
              acked++;
              if (measured) measuredAcks++;
            }
            done();
          });
        },
      );
      req.on('error', (e) => {
        statuses[e.message] = (statuses[e.message] ?? 0) + 1;
        done();
      });
      req.end(data);
    });

  if (o.rate) {
    // Every millisecond (or as soon as the event loop allows), send what is due by then.
    const interval = 1000 / o.rate;
    let inflight = 0;
    let i = 0;
    const settled = () => {
      inflight--;
    };
    while (performance.now() < end) {
      const now = performance.now();
      for (let due = begin + i * interval; due <= now && due < end; due = begin + ++i * interval) {
        inflight++;
        void post(due).then(settled);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    while (inflight > 0) await new Promise((r) => setTimeout(r, 1));
  } else {
    await Promise.all(
      Array.from({ length: o.connections }, async () => {
        while (performance.now() < end) await post(performance.now());
      }),
    );
  }
  for (const a of agents) a.destroy();
  latencies.sort((a, b) => a - b);
  return { sent, acked, measuredAcks, statuses, latencies, elapsedMs: o.durationMs };
}

process.once('message', (options: LoadOptions) => {
  run(options).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => process.send!({ error: String(error) }, () => process.exit(1)),
  );
});
