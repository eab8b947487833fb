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
    // a worker runs its files one after another in one process, modules loaded once: 278 s for the
    // suite against 423 s with a fresh module graph per file (2026-12-02, 2 cores, CI=true, 310
    // files). It holds because no test file changes what outlives it (process.env, the working
    // directory, module mocks, fake timers): eslint.config.js refuses those in test/
    isolate: false,
    setupFiles: ['test/helpers/setup.ts'],
  },
});
