// Setting some fields of an existing item (and updatedAt) in one UpdateItem, with every name escaped
// (fields such as `name` are DynamoDB reserved words). The item as it is after the update, or null when it
// does not exist (nothing is created).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, isConditionFailure, nowIso } from './db';

export async function updateFields(
  db: Db,
  key: { pk: string; sk: string },
  fields: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': nowIso() };
  const sets = ['updatedAt = :now'];
  Object.entries(fields).forEach(([field, value], i) => {
    if (value === undefined) return;
    names[`#f${i}`] = field;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  });
  try {
    const res = await db.doc.send(
      new UpdateCommand({
        TableName: db.table,
        Key: key,
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return res.Attributes ?? null;
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}
