// Bulk send: (1) local 1,000-row batch, Bundles/s end to end, against a shell loop of `esign bundle
// create` (run on 50 rows, scaled per row); (2) against `esign serve` with 50 creates per 10 s:
// share of the allowed rate reached, duplicates, rows failed by 429; (3) `batch check` of a
// 100,000-row CSV: peak RSS. Needs dist/ (npm run build). Usage: node bench/batch.mjs [--quick]
// `--local [runs]`: part (1) only, each run in a fresh data directory, beside `node -e 0` in the same run.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { batchRows, size, writeBatchSpec } from './lib.mjs';

const BIN = new URL('../bin/esign.js', import.meta.url).pathname;
const quick = process.argv.includes('--quick');
const dir = mkdtempSync(join(tmpdir(), 'esign-bench-batch-'));
writeBatchSpec(dir);

const esign = (args, env, opts = {}) =>
  execFileSync('node', [BIN, ...args], { cwd: dir, env: { ...process.env, ...env }, encoding: 'utf8', ...opts });

/** ms for `node -e 0`, the floor of any process's start. */
const nodeStart = () => {
  const t = performance.now();
  execFileSync('node', ['-e', '0']);
  return performance.now() - t;
};

if (process.argv.includes('--local')) {
  const runs = Number(process.argv[process.argv.indexOf('--local') + 1]) || 5;
  const N = 1000;
  writeFileSync(join(dir, 'rows.csv'), batchRows(N));
  const rates = [];
  for (let i = 0; i < runs; i++) {
    const env = { ESIGN_DATA_DIR: join(dir, `local${i}`) };
    const t = performance.now();
    const s = JSON.parse(
      esign(['batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--json', '--concurrency', '8'], env),
    );
    const seconds = (performance.now() - t) / 1000;
    if (s.created !== N) throw new Error(`run ${i}: ${s.created} of ${N} created`);
    rates.push(N / seconds);
    console.log(`run ${i + 1}: ${N} rows in ${seconds.toFixed(3)} s = ${(N / seconds).toFixed(0)} rows/s`);
  }
  const starts = Array.from({ length: 5 }, nodeStart).sort((a, b) => a - b);
  const median = [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)];
  console.log(
    `local batch send, ${N} rows, start-up included: median ${median.toFixed(0)} rows/s ` +
      `(min ${Math.min(...rates).toFixed(0)}, max ${Math.max(...rates).toFixed(0)}); node -e 0: ${starts[2].toFixed(1)} ms`,
  );
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

try {
  // 1. Local engine.
  const N = size('BENCH_BATCH_ROWS', quick ? 200 : 1000, 5);
  writeFileSync(join(dir, 'rows.csv'), batchRows(N));
  const localEnv = { ESIGN_DATA_DIR: join(dir, 'local') };
  let t = performance.now();
  const s = JSON.parse(
    esign(['batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--json', '--concurrency', '8'], localEnv),
  );
  const batchSeconds = (performance.now() - t) / 1000;
  const batchRate = s.created / batchSeconds;
  const LOOP = size('BENCH_LOOP_ROWS', quick ? 10 : 50, 1);
  const loopEnv = { ESIGN_DATA_DIR: join(dir, 'loop') };
  t = performance.now();
  execFileSync(
    'bash',
    [
      '-c',
      `for i in $(seq 1 ${LOOP}); do node "${BIN}" bundle create --file contract.pdf --signer "Person $i <p$i@example.com>" --label "Offer $i" -q >/dev/null; done`,
    ],
    { cwd: dir, env: { ...process.env, ...loopEnv } },
  );
  const loopPerRow = (performance.now() - t) / 1000 / LOOP;
  console.log(
    `local: ${s.created} Bundles in ${batchSeconds.toFixed(2)} s end to end (process start included) = ${batchRate.toFixed(0)} Bundles/s`,
  );
  console.log(
    `shell loop of esign bundle create: ${LOOP} rows, ${loopPerRow.toFixed(3)} s per row = ${(1 / loopPerRow).toFixed(1)} Bundles/s; ratio ${(batchRate * loopPerRow).toFixed(0)}x`,
  );

  // 2. esign serve with 50 creates per 10 s.
  const R = size('BENCH_SERVE_ROWS', quick ? 60 : 150, 3);
  writeFileSync(join(dir, 'serve.csv'), batchRows(R));
  const serveEnv = { ESIGN_DATA_DIR: join(dir, 'served') };
  const key = esign(['local', 'keys', 'create', '-q'], serveEnv).trim();
  const server = spawn(
    'node',
    [BIN, 'serve', '--port', '0', '--rate-limit', '500', '--create-rate-limit', '50', '--rate-window', '10'],
    { env: { ...process.env, ...serveEnv }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const address = await new Promise((r) => server.stdout.once('data', (d) => r(d.toString().trim())));
  const remote = { ESIGN_BASE_URL: `${address}/api/v2`, ESIGN_API_KEY: key, ESIGN_DATA_DIR: join(dir, 'client') };
  t = performance.now();
  const r = spawnSync('node', [BIN, 'batch', 'send', 'serve.csv', '--spec', 'spec.json', '--yes', '--live', '--json'], {
    cwd: dir,
    env: { ...process.env, ...remote },
    encoding: 'utf8',
  });
  const seconds = (performance.now() - t) / 1000;
  const sr = JSON.parse(r.stdout);
  const list = JSON.parse(esign(['bundle', 'list', '--all', '--per-page', '100', '--json'], remote));
  const keys = list.map((b) => b.custom_key);
  server.kill('SIGTERM');
  // The first 50 may go at once in a fixed window; the allowed rate over the run is 50 per 10 s after the first window.
  const allowed = 5; // creates per second
  const reached = sr.created / (seconds * allowed);
  console.log(
    `serve (50 per 10 s): ${sr.created} created in ${seconds.toFixed(1)} s = ${(sr.created / seconds).toFixed(2)}/s, ${(reached * 100).toFixed(0)}% of the allowed 5/s; duplicates ${keys.length - new Set(keys).size}; failed ${sr.failed} (exit ${r.status})`,
  );

  // 3. check of a 100,000-row CSV: peak RSS.
  const C = size('BENCH_CHECK_ROWS', quick ? 20000 : 100000, 100);
  await new Promise((res) => {
    const w = createWriteStream(join(dir, 'big.csv'));
    w.write('n,custom_key\n');
    for (let i = 1; i <= C; i++) w.write(`${i},\n`);
    w.end(res);
  });
  const time = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', 'node', BIN, 'batch', 'check', 'big.csv', '--spec', 'spec.json', '-q'],
    { cwd: dir, env: { ...process.env, ESIGN_DATA_DIR: join(dir, 'check') }, encoding: 'utf8' },
  );
  const kb = Number(time.stderr.trim().split('\n').pop());
  const small = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', 'node', BIN, 'batch', 'check', 'serve.csv', '--spec', 'spec.json', '-q'],
    { cwd: dir, env: { ...process.env, ESIGN_DATA_DIR: join(dir, 'check') }, encoding: 'utf8' },
  );
  const smallKb = Number(small.stderr.trim().split('\n').pop());
  console.log(
    `check: ${C} rows, peak RSS ${(kb / 1024).toFixed(0)} MB (exit ${time.status}); ${R} rows: ${(smallKb / 1024).toFixed(0)} MB`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
