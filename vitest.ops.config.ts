import { defineConfig } from 'vitest/config';

// Operations tests (`npm run test:ops`): the container image and compose stack built and run with podman, the
// installable package from `npm pack`, and a rolling upgrade from the previous release. They build and start whole
// Herald installations, so they run one file at a time, apart from the main suite.
export default defineConfig({
  test: {
    include: ['test/ops/**/*.ops.ts'],
    testTimeout: 900_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
