// `npm start`: the whole product on http://localhost:PORT, with DynamoDB Local holding the data in DATA_DIR.
// With --build-web (as `npm start` runs it), the web app is built first when its sources changed, while
// DynamoDB Local starts beside it; without it (tests that start this entry), web/dist is served as it is.
import { resolve } from 'node:path';
import { createBlobStore } from '../blobs';
import { loadConfig } from '../config';
import { findFirefox } from '../crawler/firefox';
import { FirefoxKeeper } from '../crawler/firefox-verify';
import { createCrawlHandler } from '../crawler/handler';
import { forgetFirefox, reapStaleFirefox, recordFirefox } from './firefox-pid-file';
import { startLocalServer } from './server';
import { ensureWebBuild } from './web-build';

// Lambda runs Node 22; locally Node 20 is supported, so the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const say = (line: string) => process.stdout.write(`${line}\n`);

async function main() {
  const webBuild = process.argv.includes('--build-web')
    ? ensureWebBuild({ root: resolve(import.meta.dirname, '../../..'), log: say })
    : Promise.resolve();
  // A failed build must not leave the server (and DynamoDB Local) running: it is awaited after the start.
  webBuild.catch(() => {});
  const config = loadConfig();
  const secondEngine = findFirefox(config.FIREFOX_PATH);
  say(
    'executablePath' in secondEngine
      ? `Policies are verified in Chromium and Firefox (${secondEngine.executablePath}).`
      : `Policies are verified in Chromium only: ${secondEngine.unavailable}.`,
  );
  say('Starting the API and its database...');
  // One Firefox for the whole process, started with the server (it takes seconds): analyses never wait
  // for it. Its proxy refuses the product's own ports, like Chromium's.
  let firefox: FirefoxKeeper | undefined;
  const server = await startLocalServer({
    host: process.env.HOST ?? '127.0.0.1',
    crawlHandler: (deps, local) => {
      if ('executablePath' in secondEngine) {
        const dataDir = resolve(config.DATA_DIR);
        if (reapStaleFirefox(dataDir)) say('Stopped the Firefox an earlier run left behind.');
        firefox = new FirefoxKeeper(
          secondEngine.executablePath,
          { allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS, ownPorts: local.ownPorts },
          {
            started: (browser) => recordFirefox(dataDir, browser.process()?.pid),
            closed: () => forgetFirefox(dataDir),
          },
        );
        // A Firefox that does not start is said in each analysis ("Firefox could not be used: …").
        firefox.session().catch(() => {});
      }
      return createCrawlHandler({
        ownPorts: local.ownPorts,
        db: deps.db,
        queue: deps.queue,
        logger: deps.logger,
        blobs: createBlobStore(deps.config),
        allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS,
        secondEngine: firefox ? { keeper: firefox } : secondEngine,
      });
    },
  });
  try {
    await webBuild;
  } catch (err) {
    await server.close();
    await firefox?.close();
    throw err;
  }
  // The web app's files compressed once it is built, in the background: its first visitor gets the smallest.
  void server.precompressWeb();
  const url = server.url.replace('127.0.0.1', 'localhost');
  // From the process's start (node itself, TypeScript loading, the build and DynamoDB Local included).
  process.stdout.write(`\nCSP Generator is running on ${url} (ready in ${process.uptime().toFixed(1)} s)\n`);
  process.stdout.write('Press Ctrl-C to stop.\n\n');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping (DynamoDB Local included)...\n`);
    await server.close();
    await firefox?.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
