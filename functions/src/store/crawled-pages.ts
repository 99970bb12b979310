// A completed crawl's list of pages (shared/src/schemas/crawled-pages.ts), one item beside its analysis. Only
// the crawl writer writes it; the analyses API reads it for the analysis' owner (and the owner's team).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type CrawledPages, crawledPagesSchema } from '@csp/shared/schemas/crawled-pages';
import * as z from 'zod';
import type { Db } from './db';
import { itemReader } from './items';
import { crawledPagesKey } from './keys';

const readItem = itemReader(z.object({ list: crawledPagesSchema }));

export async function putCrawledPages(db: Db, analysisId: string, list: CrawledPages): Promise<void> {
  await db.doc.send(new PutCommand({ TableName: db.table, Item: { ...crawledPagesKey(analysisId), list } }));
}

/** The list, or null for an analysis that has none (not completed, or completed before lists were kept). */
export async function getCrawledPages(db: Db, analysisId: string): Promise<CrawledPages | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: crawledPagesKey(analysisId) }));
  return res.Item ? readItem(res.Item).list : null;
}
