// CLI start-up as a ratio to `node -e 0`, measured in the same run:
//   esign --version, and esign bundle list --json on a database of 10,000 Bundles.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, size, timeCommands } from './lib.mjs';
import { seed } from './seed.mjs';

const N = size('BENCH_BUNDLES', 10_000, 20);
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-startup-'));
try {
  const t0 = Date.now();
  await seed(dir, N);
  console.log(`seeded ${N} Bundles in ${fmt((Date.now() - t0) / 1000)} s`);
  const bin = new URL('../bin/esign.js', import.meta.url).pathname;
  const env = { ...process.env, ESIGN_DATA_DIR: dir };
  const times = timeCommands(
    [
      ['node', ['-e', '0']],
      ['node', [bin, '--version']],
      ['node', [bin, 'bundle', 'list', '--json']],
    ],
    { env, runs: size('BENCH_RUNS', 21, 1) },
  );
  const [base, version, list] = times;
  const [baseCpu, versionCpu, listCpu] = times.cpu;
  const cpu = (ms, b) => `CPU ${fmt(ms, 0)} ms, ratio ${fmt(ms / b, 2)}`;
  console.log(`node -e 0                         ${fmt(base)} ms  CPU ${fmt(baseCpu, 0)} ms`);
  console.log(
    `esign --version                   ${fmt(version)} ms  ratio ${fmt(version / base, 2)} (target <= 1.3); ${cpu(versionCpu, baseCpu)}`,
  );
  console.log(
    `esign bundle list --json (${N})  ${fmt(list)} ms  ratio ${fmt(list / base, 2)} (target <= 2.0); ${cpu(listCpu, baseCpu)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
