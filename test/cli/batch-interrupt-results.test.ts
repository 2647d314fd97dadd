// Ctrl-C during batch send, from the built binary with a real SIGINT, on both backends: the
// --results file lists every row of the CSV in order (done with its outcome, interrupted, or
// not_started), its counts are the ones the last line says and the journal holds, and the resume
// skips exactly the rows created and sends the rest. A second SIGINT (the process ends at once)
// still leaves every row the journal holds as sent in the results file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/app/batch/journal.js';
import { fixture, tempDir } from '../helpers.js';
import { localBackend, openedBackend, serveBackend } from './backends.js';
import { BIN } from './serveProcess.js';

type Line = { row: number; custom_key: string; bundle_id: string; status: string; error: string };
const ROWS = 400;

/** A CSV of ROWS rows whose custom_keys start with `prefix` (each test its own), and the spec. */
function files(dir: string, prefix: string) {
  const rows = join(dir, 'rows.csv');
  writeFileSync(
    rows,
    `label,custom_key\n${Array.from({ length: ROWS }, (_, i) => `Row ${i + 1},${prefix}-${i + 1}`).join('\n')}\n`,
  );
  const spec = join(dir, 'spec.json');
  writeFileSync(
    spec,
    JSON.stringify({
      packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
      documents: [{ key: 'c', file_path: fixture('contract.pdf') }],
    }),
  );
  return { rows, spec };
}

const read = (path: string): Line[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

/** The journal's rows held as sent (the batch's one journal file under `dir`). */
function sentInJournal(dir: string): Set<number> {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.jsonl') && d.endsWith('batches')) found.push(join(d, e.name));
  };
  walk(dir);
  expect(found).toHaveLength(1);
  return new Set([...readJournal(found[0]!).rows].filter(([, e]) => e.s === 'sent').map(([row]) => row));
}

/** Starts the batch and sends SIGINT `times` once the results file holds `after` lines. */
async function interrupted(env: Record<string, string>, args: string[], results: string, after: number, times: number) {
  const child = execa('node', [BIN, ...args, '--results', results], { env, reject: false });
  for (let i = 0; i < 600; i++) {
    let lines = 0;
    try {
      lines = readFileSync(results, 'utf8').split('\n').length - 1;
    } catch {}
    if (lines >= after) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  for (let i = 0; i < times; i++) {
    child.kill('SIGINT');
    if (i + 1 < times) await new Promise((r) => setTimeout(r, 30));
  }
  return child;
}

// esign serve with room for the batch in one window: the interrupt is what is tested, not the pacing.
const BACKENDS = [
  ['local engine', localBackend],
  ['esign serve', () => serveBackend({ rateLimits: { limit: 100_000, createLimit: 100_000, windowSeconds: 3600 } })],
] as const;

describe.each(BACKENDS)('batch send interrupted by SIGINT (built binary, %s)', (_name, make) => {
  const backend = openedBackend(make);

  it('--results lists every row: done, interrupted, not started; the counts are what the journal holds; the resume sends the rest once', async () => {
    const work = tempDir('esign-int-results-');
    try {
      const { rows, spec } = files(work.dir, 'soft');
      const env = {
        ...backend.env,
        ESIGN_DATA_DIR: backend.env.ESIGN_DATA_DIR || join(work.dir, 'client'),
        NO_COLOR: '1',
      };
      const args = ['batch', 'send', rows, '--spec', spec, '--yes', '--live'];
      const first = join(work.dir, 'first.jsonl');
      const run = await interrupted(env, args, first, 20, 1);
      expect(run.exitCode, run.stderr).toBe(130);
      const said =
        /Interrupted: (\d+) of 400 rows done \((\d+) created\), (\d+) interrupted before their create was sent, (\d+) not started\. Run the same command again to resume\./.exec(
          run.stderr,
        );
      expect(said, run.stderr).not.toBeNull();
      const [done, created, interruptedRows, notStarted] = said!.slice(1).map(Number);
      expect(done).toBeGreaterThanOrEqual(20);
      expect(done! + interruptedRows! + notStarted!).toBe(ROWS);
      expect(notStarted).toBeGreaterThan(0);

      const lines = read(first);
      expect(lines.map((l) => l.row)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
      const count = (s: string) => lines.filter((l) => l.status === s).length;
      expect(count('created')).toBe(created);
      expect(count('interrupted')).toBe(interruptedRows);
      expect(count('not_started')).toBe(notStarted);
      // What the results file calls created is what the journal holds as sent, row for row.
      const journalDir = env.ESIGN_DATA_DIR;
      const sent = sentInJournal(journalDir);
      expect(new Set(lines.filter((l) => l.status === 'created').map((l) => l.row))).toEqual(sent);

      const second = join(work.dir, 'second.jsonl');
      const resumed = await execa('node', [BIN, ...args, '--results', second, '--json'], { env, reject: false });
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const again = read(second);
      expect(again.filter((l) => l.status === 'skipped').map((l) => l.row)).toEqual([...sent].sort((a, b) => a - b));
      expect(again.filter((l) => l.status === 'created')).toHaveLength(ROWS - sent.size);
      expect((await backend.engine.listBundles({ per_page: 1 })).total).toBeGreaterThanOrEqual(ROWS);
      const keys = new Set(
        [...lines, ...again].filter((l) => l.bundle_id).map((l) => `${l.custom_key} ${l.bundle_id}`),
      );
      expect(new Set([...keys].map((k) => k.split(' ')[0])).size).toBe(keys.size);
    } finally {
      work.cleanup();
    }
  }, 240_000);

  it('a second SIGINT ends the process at once: every row the journal holds as sent is in the results file', async () => {
    const work = tempDir('esign-int-hard-');
    try {
      const { rows, spec } = files(work.dir, 'hard');
      const env = { ...backend.env, ESIGN_DATA_DIR: join(work.dir, 'client'), NO_COLOR: '1' };
      if (!backend.env.ESIGN_BASE_URL) env.ESIGN_DATA_DIR = backend.env.ESIGN_DATA_DIR!;
      const args = ['batch', 'send', rows, '--spec', spec, '--yes', '--live', '--batch-id', 'hard'];
      const results = join(work.dir, 'hard.jsonl');
      const run = await interrupted(env, args, results, 10, 2);
      // Ctrl-C's status either way: exit 130 from the second SIGINT's handler, or, when the first
      // had already stopped the batch and the process was ending by itself as the second came (its
      // signal handling gone with the event loop), the end by SIGINT a shell also reports as 130.
      expect(run.exitCode === 130 || run.signal === 'SIGINT', `exit ${run.exitCode}, signal ${run.signal}`).toBe(true);
      const lines = read(results);
      const listed = new Map(lines.map((l) => [l.row, l.status]));
      for (const row of sentInJournalOf(env.ESIGN_DATA_DIR, 'hard'))
        expect(['created', 'interrupted'], `row ${row}`).toContain(listed.get(row));
      expect(lines.filter((l) => l.status === 'created').length).toBeGreaterThanOrEqual(10);
    } finally {
      work.cleanup();
    }
  }, 240_000);
});

/** The rows the journal of batch `id` holds as sent. */
function sentInJournalOf(dir: string, id: string): number[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true }))
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === `${id}.jsonl`) found.push(join(d, e.name));
  };
  walk(dir);
  expect(found).toHaveLength(1);
  return [...readJournal(found[0]!).rows].filter(([, e]) => e.s === 'sent').map(([row]) => row);
}
