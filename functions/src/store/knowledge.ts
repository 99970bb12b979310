// A completed crawl's knowledge (shared/src/reports/knowledge.ts), stored gzip-compressed beside its
// analysis item. Only the crawler writes it; the reports API reads it to classify suggestions.
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type CrawlKnowledge, crawlKnowledgeSchema } from '@csp/shared/reports/knowledge';
import type { Db } from './db';
import { knowledgeKey } from './keys';

/** DynamoDB items hold 400 KB: the knowledge keeps well under it, dropping the least-seen code if needed. */
const MAX_BYTES = 300 * 1024;

export async function putKnowledge(db: Db, knowledge: CrawlKnowledge): Promise<void> {
  let k = knowledge;
  let data = gzipSync(JSON.stringify(k));
  while (data.length > MAX_BYTES && k.code.length > 0) {
    const code = [...k.code].sort((a, b) => b.pages.length - a.pages.length);
    k = { ...k, code: code.slice(0, Math.floor(code.length * 0.7)) };
    data = gzipSync(JSON.stringify(k));
  }
  await db.doc.send(new PutCommand({ TableName: db.table, Item: { ...knowledgeKey(k.analysisId), data } }));
}

export async function getKnowledge(db: Db, analysisId: string): Promise<CrawlKnowledge | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: knowledgeKey(analysisId) }));
  const data = res.Item?.data as Uint8Array | undefined;
  if (!data) return null;
  const parsed = crawlKnowledgeSchema.safeParse(JSON.parse(gunzipSync(data).toString('utf8')));
  return parsed.success ? parsed.data : null;
}
