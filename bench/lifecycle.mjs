// Full lifecycles per second in-process: create (one PDF, two signers with fields), both sign,
// and the evidence (two signed-PDF draws, combined PDF, two Certificates of Evidence) produced.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEngine } from '../dist/engine.js';
import { fmt, size } from './lib.mjs';
import { request } from './seed.mjs';

const N = size('BENCH_LIFECYCLES', 300, 2);
const WARM_UP = size('BENCH_WARMUP', 30, 1);
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-lifecycle-'));
const engine = new LocalEngine({ dataDir: dir });
const fields = [
  { key: 'sig-a', kind: 'sig', page: 1, x: 72, y: 620, w: 200, h: 36, editors: ['a'], required: true },
  { key: 'title', kind: 'inp', page: 1, x: 72, y: 580, w: 200, h: 20, editors: ['a'] },
  { key: 'sig-b', kind: 'sig', page: 1, x: 320, y: 620, w: 200, h: 36, editors: ['b'], required: true },
];
async function lifecycle(i) {
  const r = request(i);
  const b = await engine.createBundle({ ...r, documents: r.documents.map((d) => ({ ...d, fields })) });
  await engine.signPacket(b.packets[0].id, { values: { title: `Title ${i}` } });
  await engine.signPacket(b.packets[1].id, {});
  await engine.settle();
}
try {
  for (let i = 0; i < WARM_UP; i++) await lifecycle(i);
  const t0 = process.hrtime.bigint();
  // Each its own custom_key: the engine refuses a second Bundle with one already taken.
  for (let i = WARM_UP; i < WARM_UP + N; i++) await lifecycle(i);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const done = engine.db.prepare(`SELECT count(*) AS n FROM bundles WHERE doc_status = 'fi'`).get().n;
  if (done !== N + WARM_UP) throw new Error(`only ${done} Bundles have their files`);
  console.log(`full lifecycles (create, 2 signatures, evidence): ${N} in ${fmt(s, 2)} s = ${fmt(N / s, 1)} per second`);
} finally {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
}
