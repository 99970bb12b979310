// Real web servers for export tests: Debian's nginx and apache2, each started on a free loopback port with a
// configuration of its own in a temporary folder (nothing of the system's configuration is read), serving
// one of our exported files, and stopped after the test.
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A server binary from PATH or the sbin folders (not on a normal user's PATH); null when not installed. */
export function findBinary(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return null;
}

export interface RunningServer {
  /** A page that exists (200). */
  url: string;
  /** A page that does not (404): headers set without `always` would be missing there. */
  missingUrl: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One response's headers exactly as sent: name (lower-cased) → every value, in order. */
export async function fetchHeaders(url: string): Promise<{ status: number; headers: Map<string, string[]> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET' }, (res) => {
      const headers = new Map<string, string[]>();
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        const name = res.rawHeaders[i]!.toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), res.rawHeaders[i + 1]!]);
      }
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function waitUntilServing(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${log()}`);
    try {
      await fetchHeaders(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server did not answer on ${url}: ${log()}`);
}

function start(
  bin: string,
  args: string[],
  url: string,
  missingUrl: string,
  dir: string,
): Promise<RunningServer> {
  let output = '';
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const close = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return waitUntilServing(url, child, () => output).then(
    () => ({ url, missingUrl, close }),
    async (err) => {
      await close();
      throw err;
    },
  );
}

/** The folder a server reads: world-readable, because a server started as root serves as nobody. */
function serverDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

const runningAsRoot = () => process.getuid?.() === 0;

/** nginx with `include`d lines (an nginx.conf export) in the location that answers every request. */
export async function startNginx(bin: string, included: string): Promise<RunningServer> {
  const dir = serverDir('csp-nginx-');
  const port = await freePort();
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, t));
  writeFileSync(join(dir, 'csp.conf'), included);
  const conf = [
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 32; }',
    'http {',
    '  access_log off;',
    ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (t) => `  ${t === 'body' ? 'client_body' : t}_temp_path ${dir}/${t};`,
    ),
    '  server {',
    `    listen 127.0.0.1:${port};`,
    '    location / {',
    `      include ${dir}/csp.conf;`,
    // The request's id, so a test can check the per-request nonce against it.
    '      add_header X-Request-Id $request_id always;',
    '      return 200 "ok\\n";',
    '    }',
    '    location /missing {',
    `      include ${dir}/csp.conf;`,
    '      return 404;',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const url = `http://127.0.0.1:${port}/`;
  return start(
    bin,
    ['-e', `${dir}/error.log`, '-p', dir, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'],
    url,
    `${url}missing`,
    dir,
  );
}

const APACHE_MODULES = '/usr/lib/apache2/modules';

/** apache2 serving a folder whose .htaccess is the export (AllowOverride FileInfo lets mod_headers run). */
export async function startApache(bin: string, htaccess: string): Promise<RunningServer> {
  const dir = serverDir('csp-apache-');
  const port = await freePort();
  const root = join(dir, 'htdocs');
  mkdirSync(root, { mode: 0o755 });
  mkdirSync(join(dir, 'run'));
  writeFileSync(join(root, 'index.html'), 'ok\n', { mode: 0o644 });
  writeFileSync(join(root, '.htaccess'), htaccess, { mode: 0o644 });
  const conf = [
    `ServerRoot "${dir}"`,
    `DefaultRuntimeDir "${dir}/run"`,
    `PidFile "${dir}/run/httpd.pid"`,
    `ErrorLog "${dir}/error.log"`,
    'LogLevel warn',
    `Listen 127.0.0.1:${port}`,
    'ServerName 127.0.0.1',
    `LoadModule mpm_event_module ${APACHE_MODULES}/mod_mpm_event.so`,
    `LoadModule authz_core_module ${APACHE_MODULES}/mod_authz_core.so`,
    `LoadModule headers_module ${APACHE_MODULES}/mod_headers.so`,
    ...(runningAsRoot() ? ['User nobody', 'Group nogroup'] : []),
    `DocumentRoot "${root}"`,
    'AccessFileName .htaccess',
    `<Directory "${root}">`,
    '  AllowOverride FileInfo',
    '  Require all granted',
    '</Directory>',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'httpd.conf'), conf);
  const url = `http://127.0.0.1:${port}/index.html`;
  return start(
    bin,
    ['-f', `${dir}/httpd.conf`, '-DFOREGROUND'],
    url,
    `http://127.0.0.1:${port}/missing.html`,
    dir,
  );
}
