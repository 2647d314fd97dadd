// Shared benchmark helpers: timing child processes against a baseline in the same run.
import { execFileSync, spawnSync } from 'node:child_process';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs each command `runs` times, interleaved so that machine noise hits all alike; medians in ms. */
export function timeCommands(commands, { runs = 21, env = process.env, okStatus = [0] } = {}) {
  const times = commands.map(() => []);
  for (let r = 0; r < runs; r++)
    commands.forEach(([cmd, args], i) => {
      const t0 = process.hrtime.bigint();
      const res = spawnSync(cmd, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (!okStatus.includes(res.status))
        throw new Error(`${cmd} ${args.join(' ')} exited ${res.status}: ${res.stderr}`);
      times[i].push(ms);
    });
  return times.map(median);
}

export const fmt = (n, digits = 1) => n.toFixed(digits);

/**
 * BENCH_SMOKE=1 runs a benchmark at a tiny size, to show that it still runs end to end: npm test
 * runs every file of bench/ so (test/bench/smoke.test.ts). Its figures then mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

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
