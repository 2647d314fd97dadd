import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { filesOf, type Tier } from './test/tiers.js';

// The files that take longest start first, so that none of them starts last and holds the whole run
// while the other workers are idle (a fresh clone has no timings cache to order by).
const LONGEST = [
  'test/package/install.test.ts',
  'test/cli/shipped-matrix.test.ts',
  'test/bench/smoke.test.ts',
  'test/browser/console.test.ts',
  'test/browser/signing-page.test.ts',
  'test/mcp/stdio.test.ts',
  'test/browser/preparation-pages.test.ts',
  'test/cli/batch-lock.test.ts',
  'test/cli/bundle-wait-inspect.test.ts',
  'test/cli/batch-serve.test.ts',
  'test/server/security-fuzz.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((p) => f.moduleId.endsWith(p));
      return i < 0 ? LONGEST.length : i;
    };
    return (await super.sort(files))
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}

// A browser-tier test waits on Chromium or LibreOffice, which may take a document's whole background
// deadline (SANDBOX_JOB_DEADLINE_MS, 60 s) on a loaded machine: it waits twice that, and so do its
// hooks (an engine's close waits for its documents' background work: with two runs of the suite on
// this machine, a page file's afterAll passed 30 s). A processes-tier test or hook starts programs
// (esign serve, esign mcp, a seeded data directory): with two runs of the suite on this machine's 2
// cores, starting two of them once took more than 30 s, and so did two esign mcp reading 20 MB and
// more from stdin.
const TIER_TIMEOUTS: Record<Tier, { testTimeout?: number; hookTimeout?: number }> = {
  unit: {},
  processes: { testTimeout: 90_000, hookTimeout: 90_000 },
  browser: { testTimeout: 120_000, hookTimeout: 120_000 },
  bench: {},
};

export default defineConfig({
  test: {
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
    sequence: { sequencer: LongestFirst },
    // The tiers (test/tiers.ts): `vitest run --project unit` runs one; `npm test` runs all but bench.
    projects: (['unit', 'processes', 'browser', 'bench'] as Tier[]).map((name) => ({
      extends: true,
      test: { name, include: filesOf(name), ...TIER_TIMEOUTS[name] },
    })),
  },
});
