// Creates the single table when it is missing (local runs and tests; in AWS the CDK stack owns it).
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { Db } from './db';

const GSIS = ['gsi1', 'gsi2', 'gsi3'] as const;

export async function ensureTable(db: Db): Promise<void> {
  try {
    await db.doc.send(new DescribeTableCommand({ TableName: db.table }));
    return;
  } catch (err) {
    if (!(err instanceof ResourceNotFoundException)) throw err;
  }
  await db.doc.send(
    new CreateTableCommand({
      TableName: db.table,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        ...GSIS.flatMap((g) => [
          { AttributeName: `${g}pk`, AttributeType: 'S' as const },
          { AttributeName: `${g}sk`, AttributeType: 'S' as const },
        ]),
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: GSIS.map((g) => ({
        IndexName: g,
        KeySchema: [
          { AttributeName: `${g}pk`, KeyType: 'HASH' as const },
          { AttributeName: `${g}sk`, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as const },
      })),
    }),
  );
  await db.doc.send(
    new UpdateTimeToLiveCommand({
      TableName: db.table,
      TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: true },
    }),
  );
}
