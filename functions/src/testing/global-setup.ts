// Starts one in-memory DynamoDB Local for the whole test run and hands its endpoint to every test file.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../local/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  const db = await startDynamoLocal({ inMemory: true });
  project.provide('dynamoEndpoint', db.endpoint);
  return async () => {
    await db.stop();
  };
}
