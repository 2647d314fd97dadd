// Shared benchmark helpers: timing child processes against a baseline in the same run.
import { spawnSync } from 'node:child_process';

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
