// Starts one in-memory DynamoDB Local for the whole test run and hands its endpoint to every test file.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../local/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

// Lambda runs Node 22; the SDK's notice about Node 20 is noise in tests.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default async function setup(project: TestProject) {
  const db = await startDynamoLocal({ inMemory: true });
  project.provide('dynamoEndpoint', db.endpoint);
  return async () => {
    await db.stop();
  };
}
