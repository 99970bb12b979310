export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}
export declare function freePort(): Promise<number>;
export declare function startDynamoLocal(opts: {
  dataDir?: string;
  inMemory?: boolean;
}): Promise<DynamoLocal>;
