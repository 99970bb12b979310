import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,functions,web,infra}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', '**/dist/**', '**/cdk.out/**'],
    // One DynamoDB Local for the whole run; each test file makes its own table (functions/src/testing/dynamo.ts).
    globalSetup: ['functions/src/testing/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser and crawler tests are heavy; two cores do not gain from more parallel files.
    maxWorkers: 2,
    pool: 'forks',
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
