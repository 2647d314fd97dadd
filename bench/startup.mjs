// CLI start-up as a ratio to `node -e 0`, measured in the same run:
//   esign --version, esign bundle list --json on a database of 10,000 Bundles, and a Tab: shell
//   completion's `esign __complete` answered from dist/completion.json, beside the same answer from
//   the whole program (what every Tab cost before).
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
  const cli = new URL('../dist/cli.js', import.meta.url).href;
  const tab = ['__complete', '--', 'bundle', 'list', '--sta'];
  const wholeProgram = `const { main } = await import(${JSON.stringify(cli)}); await main(['node', 'esign', ...${JSON.stringify(tab)}], '0');`;
  const times = timeCommands(
    [
      ['node', ['-e', '0']],
      ['node', [bin, '--version']],
      ['node', [bin, 'bundle', 'list', '--json']],
      ['node', [bin, ...tab]],
      ['node', ['--input-type=module', '-e', wholeProgram]],
    ],
    { env, runs: size('BENCH_RUNS', 21, 1) },
  );
  const [base, version, list, completion, whole] = times;
  const [baseCpu, versionCpu, listCpu, completionCpu, wholeCpu] = times.cpu;
  const cpu = (ms, b) => `CPU ${fmt(ms, 0)} ms, ratio ${fmt(ms / b, 2)}`;
  console.log(`node -e 0                         ${fmt(base)} ms  CPU ${fmt(baseCpu, 0)} ms`);
  console.log(
    `esign --version                   ${fmt(version)} ms  ratio ${fmt(version / base, 2)} (target <= 1.3); ${cpu(versionCpu, baseCpu)}`,
  );
  console.log(
    `esign bundle list --json (${N})  ${fmt(list)} ms  ratio ${fmt(list / base, 2)} (target <= 2.0); ${cpu(listCpu, baseCpu)}`,
  );
  console.log(
    `esign __complete (a Tab)          ${fmt(completion)} ms  ratio ${fmt(completion / base, 2)} (target <= 1.3); ${cpu(completionCpu, baseCpu)}`,
  );
  console.log(
    `  the same from the whole program ${fmt(whole)} ms  ratio ${fmt(whole / base, 2)}; ${cpu(wholeCpu, baseCpu)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
