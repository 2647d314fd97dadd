// Kill-and-double-resume trials against the batch lock (issue 24, item 4): each trial sends a batch
// on the local engine, SIGKILLs it a random few rows in, then starts two resumers at the same
// moment, and counts the Bundles per custom_key (a duplicate is a row sent twice). Needs dist/
// (npm run build). Usage: node bench/batch-resume-race.mjs [trials=50] [rows=30]
// bench/security.mjs (or a test) may import doubleResumeTrials() instead.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { size } from './lib.mjs';

const BIN = new URL('../bin/esign.js', import.meta.url).pathname;
const FIXTURE = new URL('../fixtures/contract.pdf', import.meta.url).pathname;
const CONFLICT = 7;

function run(args, env, { killAfterIds } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      if (killAfterIds !== undefined && stdout.split('\n').filter(Boolean).length >= killAfterIds)
        child.kill('SIGKILL');
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** One trial in a fresh data directory; returns what the two resumers did and what the engine holds. */
export async function doubleResumeTrial({ rows = 30 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-resume-race-'));
  try {
    copyFileSync(FIXTURE, join(dir, 'contract.pdf'));
    writeFileSync(
      join(dir, 'spec.json'),
      JSON.stringify({
        label: 'Race {{n}}',
        documents: [
          {
            key: 'd',
            file_path: join(dir, 'contract.pdf'),
            fields: [{ kind: 'sig', key: 's', editors: ['p'], page: 1, x: 10, y: 10, w: 90, h: 30 }],
          },
        ],
        packets: [{ key: 'p', name: 'Person {{n}}', email: 'p{{n}}@example.com' }],
      }),
    );
    writeFileSync(join(dir, 'rows.csv'), `n\n${Array.from({ length: rows }, (_, i) => i + 1).join('\n')}\n`);
    const env = { ESIGN_DATA_DIR: join(dir, 'engine'), CI: '1' };
    const send = [
      'batch',
      'send',
      join(dir, 'rows.csv'),
      '--spec',
      join(dir, 'spec.json'),
      '--yes',
      '-q',
      '--concurrency',
      '3',
    ];
    // A window between each create and its journal entry, so the kill often leaves rows in flight.
    const first = await run(
      send,
      { ...env, ESIGN_BATCH_CRASH_WINDOW_MS: '20' },
      { killAfterIds: 1 + Math.floor(Math.random() * (rows / 3)) },
    );
    const resumers = await Promise.all([run(send, env), run(send, env)]);
    const list = await run(['bundle', 'list', '--all', '--per-page', '100', '--json'], env);
    const keys = JSON.parse(list.stdout).map((b) => b.custom_key);
    const perKey = new Map();
    for (const k of keys) perKey.set(k, (perKey.get(k) ?? 0) + 1);
    return {
      killed: first.signal === 'SIGKILL',
      exits: resumers.map((r) => r.code),
      bundles: keys.length,
      duplicates: [...perKey.values()].reduce((n, c) => n + c - 1, 0),
      missing: rows - perKey.size,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `trials` trials in a row; totals of duplicates (rows sent twice or more) and of rows never sent. */
export async function doubleResumeTrials({ trials = 50, rows = 30, onTrial } = {}) {
  const sum = { trials, rows, killed: 0, duplicates: 0, missing: 0, bothRan: 0, oneRefused: 0, otherExits: [] };
  for (let i = 0; i < trials; i++) {
    const t = await doubleResumeTrial({ rows });
    onTrial?.(i, t);
    if (t.killed) sum.killed++;
    sum.duplicates += t.duplicates;
    sum.missing += t.missing;
    if (t.exits.includes(CONFLICT)) sum.oneRefused++;
    else sum.bothRan++;
    for (const c of t.exits) if (c !== 0 && c !== CONFLICT) sum.otherExits.push(c);
  }
  return sum;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const trials = Number(process.argv[2] ?? size('BENCH_TRIALS', 50, 1));
  const rows = Number(process.argv[3] ?? size('BENCH_ROWS', 30, 6));
  const r = await doubleResumeTrials({
    trials,
    rows,
    onTrial: (i, t) => process.stderr.write(`trial ${i + 1}: ${JSON.stringify(t)}\n`),
  });
  console.log(JSON.stringify(r));
  process.exitCode = r.duplicates || r.missing || r.otherExits.length ? 1 : 0;
}
