// Trials against the batch lock (issue 24 item 4, issue 36 item 3). A resume trial sends a batch on
// the local engine, SIGKILLs it a random few rows in, then starts two resumers at the same moment; a
// start trial starts two senders of a fresh batch at the same moment. Each counts the Bundles per
// custom_key (a duplicate is a row sent twice, a missing one never sent) and which processes sent
// rows (exactly one must). Needs dist/ (npm run build).
// Usage: node bench/batch-resume-race.mjs [trials=50] [rows=30] [resume|start]
// bench/security.mjs (or a test) may import doubleResumeTrials() / doubleStartTrials() instead.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crashWindowEnv, size } from './lib.mjs';

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

/** A fresh data directory with a batch of `rows` rows; `send` is its batch send command line. */
function batchDir(rows) {
  const dir = mkdtempSync(join(tmpdir(), 'esign-resume-race-'));
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
  const send = ['batch', 'send', join(dir, 'rows.csv'), '--spec', join(dir, 'spec.json'), '--yes', '-q'];
  send.push('--concurrency', '3');
  return { dir, env, send };
}

/** What two processes started together did, and what the engine holds. */
async function together(env, send, rows) {
  const pair = await Promise.all([run(send, env), run(send, env)]);
  const list = await run(['bundle', 'list', '--all', '--per-page', '100', '--json'], env);
  const keys = JSON.parse(list.stdout).map((b) => b.custom_key);
  const perKey = new Map();
  for (const k of keys) perKey.set(k, (perKey.get(k) ?? 0) + 1);
  return {
    exits: pair.map((r) => r.code),
    senders: pair.filter((r) => r.stdout.trim()).length,
    bundles: keys.length,
    duplicates: [...perKey.values()].reduce((n, c) => n + c - 1, 0),
    missing: rows - perKey.size,
  };
}

/** One kill-and-double-resume trial in a fresh data directory. */
export async function doubleResumeTrial({ rows = 30 } = {}) {
  const { dir, env, send } = batchDir(rows);
  try {
    // A window between each create and its journal entry, so the kill often leaves rows in flight.
    const first = await run(
      send,
      { ...env, ...crashWindowEnv(20) },
      { killAfterIds: 1 + Math.floor(Math.random() * (rows / 3)) },
    );
    return { killed: first.signal === 'SIGKILL', ...(await together(env, send, rows)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One trial of two senders of a fresh batch started at the same moment. */
export async function doubleStartTrial({ rows = 30 } = {}) {
  const { dir, env, send } = batchDir(rows);
  try {
    return { killed: true, ...(await together(env, send, rows)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `trials` trials in a row; totals of duplicates, rows never sent, and trials where not exactly one process sent. */
async function trialsOf(trial, { trials = 50, rows = 30, onTrial } = {}) {
  const sum = {
    trials,
    rows,
    killed: 0,
    duplicates: 0,
    missing: 0,
    notOneSender: 0,
    bothRan: 0,
    oneRefused: 0,
    allRefused: 0,
    otherExits: [],
  };
  for (let i = 0; i < trials; i++) {
    const t = await trial({ rows });
    onTrial?.(i, t);
    if (t.killed) sum.killed++;
    sum.duplicates += t.duplicates;
    sum.missing += t.missing;
    if (t.senders !== 1) sum.notOneSender++;
    const refused = t.exits.filter((c) => c === CONFLICT).length;
    if (refused === t.exits.length) sum.allRefused++;
    else if (refused) sum.oneRefused++;
    else sum.bothRan++;
    for (const c of t.exits) if (c !== 0 && c !== CONFLICT) sum.otherExits.push(c);
  }
  return sum;
}

export const doubleResumeTrials = (o) => trialsOf(doubleResumeTrial, o);
export const doubleStartTrials = (o) => trialsOf(doubleStartTrial, o);

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const trials = Number(process.argv[2] ?? size('BENCH_TRIALS', 50, 1));
  const rows = Number(process.argv[3] ?? size('BENCH_ROWS', 30, 6));
  const r = await (process.argv[4] === 'start' ? doubleStartTrials : doubleResumeTrials)({
    trials,
    rows,
    onTrial: (i, t) => process.stderr.write(`trial ${i + 1}: ${JSON.stringify(t)}\n`),
  });
  console.log(JSON.stringify(r));
  process.exitCode = r.duplicates || r.missing || r.notOneSender || r.otherExits.length ? 1 : 0;
}
