import { configDefaults, defineConfig } from 'vitest/config';

// The SDK warns on Node 20 about a support date (CI and Lambda run Node 24). Keep test output readable.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // test/bundles/ belongs to the bundles pass (vitest.bundles.config.ts).
    exclude: [...configDefaults.exclude, 'test/bundles/**'],
    // One DynamoDB Local + SQS server + local API for the whole run (tests isolate by unique ids).
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/setup-env.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
