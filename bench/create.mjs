// Engine create throughput in-process: one small PDF, two signers, each create a full launch
// (validation, PDF check, blob store, one transaction with events and outbox messages).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEngine } from '../dist/engine.js';
import { fmt } from './lib.mjs';
import { request } from './seed.mjs';

const N = Number(process.env.BENCH_CREATES ?? 5_000);
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-create-'));
const engine = new LocalEngine({ dataDir: dir });
try {
  for (let i = 0; i < 200; i++) await engine.createBundle(request(i)); // warm-up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) await engine.createBundle(request(i));
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`engine createBundle: ${N} in ${fmt(s, 2)} s = ${fmt(N / s, 0)} creates/s (target >= 1000)`);
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
