import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // a worker per core: vitest's default leaves one core free (one worker on a 2-core machine),
    // but most files wait on child processes and loopback I/O, so the suite took 640 s there and
    // 340 s with two workers
    maxWorkers: availableParallelism(),
    minWorkers: 1,
    setupFiles: ['test/helpers/setup.ts'],
  },
});
