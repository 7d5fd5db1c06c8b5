import os from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files run side by side, one per CPU and never fewer than two: most of a test's time is spent waiting on
// timers, sockets and the database, so even two CPUs keep two files busy (vitest's default, one fewer than the
// CPUs, would run them one at a time on a two-CPU machine).
const workers = Math.max(2, os.availableParallelism());

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    globalSetup: ['test/support/template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: workers,
    // A worker runs its files one after another in one process and keeps the modules it loaded: loading the app
    // again for every file cost about 4 s of each file's time (half the suite). Tests share no state through
    // modules (each builds its own app on its own database), and a test that changes the process (an environment
    // variable, the time zone) puts it back when it ends.
    isolate: false,
  },
});
