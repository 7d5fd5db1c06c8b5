import { defineConfig } from 'vitest/config';

// End-to-end tests of the dashboard in Debian's Chromium (`npm run test:e2e`): a real Herald on a real
// test database (PGlite, or PostgreSQL with TEST_DATABASE_URL), listening on a real port.
export default defineConfig({
  test: {
    include: ['test/system/e2e/**/*.e2e.ts'],
    globalSetup: ['test/support/template.ts', 'test/system/e2e/build-web.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
    // One process for every file, its modules loaded once (each file starts its own Herald and browser).
    isolate: false,
  },
});
