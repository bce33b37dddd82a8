import { defineConfig } from 'vitest/config';

/**
 * Vitest runs the server, worker and BFF tests against real Postgres and Redis. The element's
 * library build joins this file with its own issue.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
  },
});
