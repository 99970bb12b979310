// `npm start`: the whole product on http://localhost:PORT, with DynamoDB Local holding the data in DATA_DIR.
import { createBlobStore } from '../blobs';
import { createCrawlHandler } from '../crawler/handler';
import { startLocalServer } from './server';

// Lambda runs Node 22; locally Node 20 is supported, so the SDK's notice about Node 22 is noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

async function main() {
  const started = Date.now();
  const server = await startLocalServer({
    host: process.env.HOST ?? '127.0.0.1',
    crawlHandler: (deps, local) =>
      createCrawlHandler({
        ownPorts: local.ownPorts,
        db: deps.db,
        queue: deps.queue,
        logger: deps.logger,
        blobs: createBlobStore(deps.config),
        allowPrivateTargets: deps.config.ALLOW_PRIVATE_TARGETS,
      }),
  });
  const url = server.url.replace('127.0.0.1', 'localhost');
  process.stdout.write(
    `\nCSP Generator is running on ${url} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  process.stdout.write('Press Ctrl-C to stop.\n\n');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping (DynamoDB Local included)...\n`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  process.stderr.write(`Could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
