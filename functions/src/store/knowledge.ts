// A completed crawl's knowledge (shared/src/reports/knowledge.ts), stored gzip-compressed beside its
// analysis item. Only the crawl writer writes it (the crawler hands it over packed); the reports API reads it
// to classify suggestions.
import { gunzipSync, gzipSync } from 'node:zlib';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { type CrawlKnowledge, crawlKnowledgeSchema } from '@csp/shared/reports/knowledge';
import type { Db } from './db';
import { knowledgeKey } from './keys';

/** DynamoDB items hold 400 KB: the knowledge keeps well under it, dropping the least-seen code if needed. */
export const MAX_PACKED_KNOWLEDGE_BYTES = 300 * 1024;
/** What a packed knowledge may grow to when unpacked (a gzip bomb stops here). */
const MAX_UNPACKED_BYTES = 16 * 1024 * 1024;

/** The knowledge gzip-compressed within MAX_PACKED_KNOWLEDGE_BYTES, the least-seen code dropped to fit. */
export function packKnowledge(knowledge: CrawlKnowledge): Buffer {
  let k = knowledge;
  let data = gzipSync(JSON.stringify(k));
  while (data.length > MAX_PACKED_KNOWLEDGE_BYTES && k.code.length > 0) {
    const code = [...k.code].sort((a, b) => b.pages.length - a.pages.length);
    k = { ...k, code: code.slice(0, Math.floor(code.length * 0.7)) };
    data = gzipSync(JSON.stringify(k));
  }
  return data;
}

/** The knowledge in packed bytes, or null when they are not a valid one (or unpack too large). */
export function unpackKnowledge(data: Uint8Array): CrawlKnowledge | null {
  try {
    const text = gunzipSync(data, { maxOutputLength: MAX_UNPACKED_BYTES }).toString('utf8');
    const parsed = crawlKnowledgeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function putKnowledge(db: Db, knowledge: CrawlKnowledge): Promise<void> {
  const data = packKnowledge(knowledge);
  await db.doc.send(
    new PutCommand({ TableName: db.table, Item: { ...knowledgeKey(knowledge.analysisId), data } }),
  );
}

export async function getKnowledge(db: Db, analysisId: string): Promise<CrawlKnowledge | null> {
  const res = await db.doc.send(new GetCommand({ TableName: db.table, Key: knowledgeKey(analysisId) }));
  const data = res.Item?.data as Uint8Array | undefined;
  return data ? unpackKnowledge(data) : null;
}
