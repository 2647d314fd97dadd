// A large local batch against the engine's own creates, in the same run. Each run, turn about:
// `esign batch send` of a BENCH_BATCH_ROWS-row CSV (10,000) into a fresh data directory, the whole
// process timed (start-up, the CSV, the journal); then the same rows' requests (the spec filled in
// for each row, its PDF attached as the batch attaches it) created by the engine in this process,
// 8 in flight, into a fresh data directory. Rows per second of each and their ratio: target >= 0.8.
// Needs dist/ (npm run build).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalEngine } from '../dist/engine.js';
import { BATCH_SPEC, batchRows, fmt, median, size, writeBatchSpec } from './lib.mjs';

const BIN = new URL('../bin/esign.js', import.meta.url).pathname;
const FIXTURE = new URL('../fixtures/contract.pdf', import.meta.url).pathname;
const N = size('BENCH_BATCH_ROWS', 10_000, 20);
const RUNS = size('BENCH_RUNS', 3, 1);
const IN_FLIGHT = 8;
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-batch-local-'));
writeBatchSpec(dir);
writeFileSync(join(dir, 'rows.csv'), batchRows(N));
const pdf = { filename: 'contract.pdf', data: readFileSync(FIXTURE) };

/** Row n's request as `batch send` makes it from the spec (file_path becomes an attached file). */
const requestOf = (n) => ({
  label: `Offer ${n}`,
  documents: [{ key: 'o', file_index: 0, fields: BATCH_SPEC.documents[0].fields }],
  packets: [{ key: 'p', name: `Person ${n}`, email: `p${n}@example.com` }],
  custom_key: `bench-${n}`,
});

function batchSend(run) {
  const t = performance.now();
  const out = execFileSync(
    process.execPath,
    [BIN, 'batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--json', '--concurrency', String(IN_FLIGHT)],
    { cwd: dir, env: { ...process.env, ESIGN_DATA_DIR: join(dir, `batch${run}`) }, encoding: 'utf8' },
  );
  const seconds = (performance.now() - t) / 1000;
  const created = JSON.parse(out).created;
  if (created !== N) throw new Error(`run ${run}: ${created} of ${N} rows created`);
  return N / seconds;
}

async function engineCreates(run) {
  const engine = new LocalEngine({ dataDir: join(dir, `engine${run}`) });
  try {
    let next = 1;
    const t = performance.now();
    const worker = async () => {
      while (next <= N) await engine.createBundle(requestOf(next++), [pdf]);
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    return N / ((performance.now() - t) / 1000);
  } finally {
    await engine.close();
  }
}

try {
  const batch = [];
  const engine = [];
  for (let run = 0; run < RUNS; run++) {
    batch.push(batchSend(run));
    engine.push(await engineCreates(run));
    console.log(`  run ${run + 1}: batch send ${fmt(batch[run], 0)} rows/s, engine ${fmt(engine[run], 0)} creates/s`);
  }
  const ratios = batch.map((b, i) => b / engine[i]);
  console.log(
    `local batch send, ${N} rows, start-up included: median ${fmt(median(batch), 0)} rows/s; the engine's own ` +
      `creates, ${IN_FLIGHT} in flight, same rows: median ${fmt(median(engine), 0)}/s; batch / engine ` +
      `${fmt(median(ratios), 2)} (runs: ${ratios.map((r) => fmt(r, 2)).join(' ')}; target >= 0.8)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
