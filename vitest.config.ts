import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most of a test file's own cost was loading the engine's modules again in a fresh process:
    // test files share their worker's module cache (they keep no state at module level; each
    // makes its own engine, data and config directory).
    isolate: false,
    // Many tests wait on processes, servers and browsers: more workers than this machine's 2 cores.
    maxWorkers: 3,
  },
});
