// The real crawl handler as tests run it: loopback fixture sites allowed, checkpoints in a test's own blob
// folder, pages settling after 50 ms of network quiet instead of the production wait.
import { LocalBlobStore } from '../blobs/local-blob-store';
import { type CrawlHandlerDeps, createCrawlHandler } from '../crawler/handler';

export function loopbackCrawlHandler(
  deps: Pick<CrawlHandlerDeps, 'db' | 'queue' | 'logger'>,
  blobDir: string,
  overrides: Partial<Omit<CrawlHandlerDeps, 'db' | 'queue' | 'logger'>> = {},
) {
  return createCrawlHandler({
    db: deps.db,
    queue: deps.queue,
    logger: deps.logger,
    blobs: new LocalBlobStore(blobDir),
    allowPrivateTargets: true,
    ...overrides,
    crawlOptions: { settle: { idleMs: 50 }, ...overrides.crawlOptions },
  });
}
