// A table handle that notes the partition key of every request before sending it: the least-privilege test
// runs each restricted function's real code on DynamoDB Local through one, and checks what it touched
// against shared/src/store/key-prefixes.ts (the list infra turns into IAM LeadingKeys conditions).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../store/db';

export interface Touch {
  command: string;
  /** The partition key value: the table's pk, or the index's for a Query on an index. */
  partition: string;
  index?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: every command's input has its own shape
type Input = Record<string, any>;

function partitionsOf(command: string, input: Input): Touch[] {
  const pk = (o: Input | undefined) => (o?.pk === undefined ? [] : [String(o.pk)]);
  const touches = (parts: string[], index?: string) =>
    parts.map((partition) => ({ command, partition, ...(index ? { index } : {}) }));
  switch (command) {
    case 'GetCommand':
    case 'DeleteCommand':
    case 'UpdateCommand':
      return touches(pk(input.Key));
    case 'PutCommand':
      return touches(pk(input.Item));
    case 'QueryCommand': {
      const name = /^\s*#?(\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression ?? '');
      const value = name ? input.ExpressionAttributeValues?.[name[2]!] : undefined;
      return touches([String(value)], input.IndexName);
    }
    case 'BatchGetCommand':
      return touches(
        (Object.values(input.RequestItems ?? {}) as Input[]).flatMap((r) => (r.Keys ?? []).flatMap(pk)),
      );
    case 'BatchWriteCommand':
      return touches(
        (Object.values(input.RequestItems ?? {}) as Input[][]).flatMap((rs) =>
          rs.flatMap((r) => [...pk(r.PutRequest?.Item), ...pk(r.DeleteRequest?.Key)]),
        ),
      );
    case 'TransactWriteCommand':
      return touches(
        (input.TransactItems ?? []).flatMap((t: Input) => [
          ...pk(t.Put?.Item),
          ...pk(t.Update?.Key),
          ...pk(t.Delete?.Key),
          ...pk(t.ConditionCheck?.Key),
        ]),
      );
    default:
      // A Scan (or anything new) is never within a key prefix: it shows up as a violation.
      return touches([`(${command})`]);
  }
}

/** `db` with every request's partition noted in `touched` first. */
export function recordingDb(db: Db, touched: Touch[] = []): { db: Db; touched: Touch[] } {
  const doc = {
    send(cmd: { constructor: { name: string }; input: Input }) {
      touched.push(...partitionsOf(cmd.constructor.name, cmd.input));
      return db.doc.send(cmd as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { db: { ...db, doc }, touched };
}

/** The touches outside the allowed prefixes. */
export const outside = (touched: Touch[], prefixes: readonly string[]) =>
  touched.filter((t) => !prefixes.some((p) => t.partition.startsWith(p)));
