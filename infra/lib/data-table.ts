// The single DynamoDB table. Its shape mirrors functions/src/store/table.ts (which creates the same table
// on DynamoDB Local): generic keys pk/sk, three GSIs gsiNpk/gsiNsk, TTL on expiresAt.
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export const GSI_NAMES = ['gsi1', 'gsi2', 'gsi3'] as const;
export type GsiName = (typeof GSI_NAMES)[number];
export const TTL_ATTRIBUTE = 'expiresAt';

export class DataTable extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      globalSecondaryIndexes: GSI_NAMES.map((g) => ({
        indexName: g,
        partitionKey: { name: `${g}pk`, type: AttributeType.STRING },
        sortKey: { name: `${g}sk`, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      })),
      timeToLiveAttribute: TTL_ATTRIBUTE,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Accounts, domains and reports outlive any one deployment of the stack.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
  }
}
