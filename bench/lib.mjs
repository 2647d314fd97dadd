// Shared benchmark helpers: timing child processes against a baseline in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const TIME = '/usr/bin/time';
const hasTime = (() => {
  try {
    return spawnSync(TIME, ['-f', '%U', 'true'], { stdio: 'ignore' }).status === 0;
  } catch {
    return false;
  }
})();

/**
 * Runs each command `runs` times, interleaved so that machine noise hits all alike; medians in ms.
 * The array also carries `cpu`: each command's median CPU time (user + system, from /usr/bin/time;
 * NaN where it is missing), which load on a shared machine disturbs less than wall-clock time.
 */
export function timeCommands(commands, { runs = 21, env = process.env, okStatus = [0] } = {}) {
  const times = commands.map(() => []);
  const cpus = commands.map(() => []);
  const cpuFile = join(tmpdir(), `esign-bench-time-${process.pid}`);
  for (let r = 0; r < runs; r++)
    commands.forEach(([cmd, args], i) => {
      const [file, argv] = hasTime ? [TIME, ['-f', '%U %S', '-o', cpuFile, cmd, ...args]] : [cmd, args];
      const t0 = process.hrtime.bigint();
      const res = spawnSync(file, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (!okStatus.includes(res.status))
        throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
      times[i].push(ms);
      const [user, sys] = hasTime ? readFileSync(cpuFile, 'utf8').trim().split('\n').pop().split(' ').map(Number) : [];
      cpus[i].push(hasTime ? (user + sys) * 1000 : Number.NaN);
    });
  if (hasTime) rmSync(cpuFile, { force: true });
  return Object.assign(times.map(median), { cpu: cpus.map(median) });
}

export const fmt = (n, digits = 1) => n.toFixed(digits);

/**
 * BENCH_SMOKE=1 runs a benchmark at a tiny size, to show that it still runs end to end: npm test
 * runs every file of bench/ so (test/bench/smoke.test.ts). Its figures then mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/**
 * The environment that makes a spawned batch process wait `ms` before each journal entry marking a
 * row sent (crashWindow.mjs, preloaded): kill tests aim at that window.
 */
export const crashWindowEnv = (ms) => ({
  NODE_OPTIONS:
    `${process.env.NODE_OPTIONS ?? ''} --import=${new URL('./crashWindow.mjs', import.meta.url).href}`.trim(),
  ESIGN_TEST_CRASH_WINDOW_MS: String(ms),
});

/**
 * A data directory of `n` Bundles seeded by bench/scale.mjs's fast path and kept (the caller removes
 * it), for the benchmarks that read a large store without measuring its making.
 */
export function keptScaleDir(n) {
  console.log(`seeding ${n.toLocaleString('en')} Bundles with bench/scale.mjs ...`);
  const out = execFileSync(process.execPath, [new URL('./scale.mjs', import.meta.url).pathname], {
    env: {
      ...process.env,
      BENCH_SCALE_SIZES: String(n),
      BENCH_SCALE_KEEP: '1',
      BENCH_SCALE_RUNS: '1',
      BENCH_SCALE_CREATES: '0',
    },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const dir = /kept (\S+)/.exec(out)?.[1];
  if (!dir) throw new Error(`bench/scale.mjs kept no directory:\n${out}`);
  return dir;
}

/** A size or count: from the environment variable `name` when set, else the full run's, or the smoke run's. */
export const size = (name, full, smoke) => Number(process.env[name] ?? (SMOKE ? smoke : full));

/** The batch benchmarks' spec: one document with a signature field, one signer, filled from column `n`. */
export const BATCH_SPEC = {
  label: 'Offer {{n}}',
  documents: [
    {
      key: 'o',
      file_path: 'contract.pdf',
      fields: [{ kind: 'sig', key: 's', editors: ['p'], page: 1, x: 10, y: 10, w: 90, h: 30 }],
    },
  ],
  packets: [{ key: 'p', name: 'Person {{n}}', email: 'p{{n}}@example.com' }],
};

/** A CSV of rows 1..n in its one column, `n`. */
export const batchRows = (n) => `n\n${Array.from({ length: n }, (_, i) => i + 1).join('\n')}\n`;

/** contract.pdf and spec.json (BATCH_SPEC) in `dir`, for `esign batch send rows.csv --spec spec.json`. */
export function writeBatchSpec(dir) {
  copyFileSync(new URL('../fixtures/contract.pdf', import.meta.url), join(dir, 'contract.pdf'));
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(BATCH_SPEC));
}
