import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Files named *.alone.test.ts time what a user sees during a real crawl (a crawler browser and the user's
// browser at once): they run one at a time after everything else, so no other file's load makes them
// measure the machine instead of the product, and they add none to the others.
const ALONE = '{shared,functions,web,infra}/**/*.alone.test.{ts,tsx}';
const shared = {
  exclude: ['**/node_modules/**', '**/dist/**', '**/cdk.out/**'],
  // One DynamoDB Local for the whole run; each test file makes its own table (functions/src/testing/dynamo.ts).
  globalSetup: ['functions/src/testing/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks' as const,
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

export default defineConfig({
  test: {
    projects: [
      {
        // The web app's own alias, for its modules' unit tests (the same as web/vite.config.ts).
        resolve: { alias: { '@': fileURLToPath(new URL('./web/src', import.meta.url)) } },
        test: {
          ...shared,
          name: 'all',
          include: ['{shared,functions,web,infra}/**/*.test.{ts,tsx}'],
          exclude: [...shared.exclude, ALONE],
          // Browser and crawler tests are heavy; two cores do not gain from more parallel files.
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...shared,
          name: 'alone',
          include: [ALONE],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
