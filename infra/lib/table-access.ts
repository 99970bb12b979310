// What each function may do with the table, spelled out: only the item actions the code calls (never Scan,
// never a wildcard), indexes only for those that query them, and for every function but the API a
// dynamodb:LeadingKeys condition naming the key prefixes it touches (shared/src/store/key-prefixes.ts; the
// least-privilege test in functions/ runs each one on DynamoDB Local and checks it stays inside them).
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { GSI_NAMES, type GsiName } from './data-table';

export type TableAccessMode = 'read' | 'readWrite';

/** ConditionCheckItem is what a TransactWriteItems condition-only entry needs. */
export const READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
] as const;
export const WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
] as const;

export interface TableAccess {
  accessMode: TableAccessMode;
  /** Query the GSIs too (the API's lists, the consumer's domain analyses), or only these. Default: false. */
  indexes?: boolean | readonly GsiName[];
  /** Partition-key prefixes the function is confined to; absent: the whole table (the API only). */
  leadingKeys?: readonly string[];
  /**
   * Of leadingKeys, the ones it may write (readWrite only); absent: all of them. The others are read only:
   * the writes get a statement of their own with this narrower condition.
   */
  writeLeadingKeys?: readonly string[];
}

const confinedTo = (prefixes: readonly string[] | undefined) =>
  prefixes
    ? {
        conditions: {
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((p) => `${p}*`) },
        },
      }
    : {};

export function tableStatements(table: ITableV2, access: TableAccess): PolicyStatement[] {
  const { accessMode, indexes = false, leadingKeys, writeLeadingKeys } = access;
  // Each index by name (not index/*), so the grant says exactly what it reaches.
  const resources = [
    table.tableArn,
    ...(indexes === true ? GSI_NAMES : indexes || []).map((g) => `${table.tableArn}/index/${g}`),
  ];
  const writes = accessMode === 'readWrite';
  if (writes && writeLeadingKeys && leadingKeys) {
    return [
      new PolicyStatement({ actions: [...READ_ACTIONS], resources, ...confinedTo(leadingKeys) }),
      // Writes go to the base table only (an index is never written directly).
      new PolicyStatement({
        actions: [...WRITE_ACTIONS],
        resources: [table.tableArn],
        ...confinedTo(writeLeadingKeys),
      }),
    ];
  }
  return [
    new PolicyStatement({
      actions: [...READ_ACTIONS, ...(writes ? WRITE_ACTIONS : [])],
      resources,
      ...confinedTo(leadingKeys),
    }),
  ];
}

export function grantTable(grantee: IGrantable, table: ITableV2, access: TableAccess): void {
  for (const statement of tableStatements(table, access))
    grantee.grantPrincipal.addToPrincipalPolicy(statement);
}
