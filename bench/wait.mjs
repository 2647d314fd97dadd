// `esign bundle wait` on the local engine: how soon a wait in one process notices that another
// process completed the Bundle (target: within 1 s). Latency runs from the start of the last
// signature here to the wait's line on stdout there (the child's exit is not counted).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEngine } from '../dist/engine.js';
import { fmt, median, size } from './lib.mjs';
import { request } from './seed.mjs';

const RUNS = size('BENCH_WAIT_RUNS', 15, 1);
const BIN = new URL('../bin/esign.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-wait-'));
const engine = new LocalEngine({ dataDir: dir });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

try {
  const latencies = [];
  for (let i = 0; i < RUNS; i++) {
    const b = await engine.createBundle(request(i));
    await engine.settle();
    const { packets } = await engine.getBundle(b.id);
    await engine.signPacket(packets[0].id, {});
    const child = spawn('node', [BIN, 'bundle', 'wait', b.id, '--timeout', '30s'], {
      env: { ...process.env, ESIGN_DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const noticed = new Promise((resolve, reject) => {
      child.stdout.once('data', () => resolve(performance.now()));
      child.once('exit', (code) => code !== 0 && reject(new Error(`wait exited ${code}`)));
    });
    await sleep(1200); // the child is up and watching
    const t0 = performance.now();
    await engine.signPacket(packets[1].id, {});
    latencies.push((await noticed) - t0);
    await new Promise((r) => child.once('close', r));
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
  if (process.env.BENCH_VERBOSE) console.log(sorted.map((x) => x.toFixed(0)).join(' '));
  console.log(
    `bundle wait notices completion by another process: median ${fmt(median(latencies), 0)} ms, p95 ${fmt(p95, 0)} ms, max ${fmt(sorted.at(-1), 0)} ms over ${RUNS} runs (target < 1000 ms)`,
  );
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
