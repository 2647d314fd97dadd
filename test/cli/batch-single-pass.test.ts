// batch send with --yes and nothing to gate reads, builds and checks each row once, as it sends it
// (no counting pass first). Interrupted so, it still says how many rows the CSV holds and how many
// were not started. A real process (bin/esign.js on dist/: npm run build first).
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBatchDir } from '../helpers.js';
import { BIN } from './serveProcess.js';

const ROWS = 3000;
const { data, env } = useBatchDir('esign-batch-single-', 'Waiver', ROWS);

/** The journal's entries of the batch, once there is one. */
function journalEntries(): { s: string }[] {
  const dir = join(data.dir, 'engine', 'batches');
  const file = readdirSync(dir, { withFileTypes: true }).find((f) => f.name.endsWith('.jsonl'));
  if (!file) return [];
  return readFileSync(join(dir, file.name), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('batch send --yes, one pass', () => {
  it('Ctrl-C mid-run: the summary counts every row of the CSV, and those not started', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--json', '--concurrency', '2'],
      { cwd: data.dir, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Interrupted once some rows are sent, long before the last is read (two runs of the suite on
    // this machine's 2 cores once took more than 15 s to send 20).
    for (const start = Date.now(); Date.now() - start < 60_000; ) {
      const sent = (() => {
        try {
          return journalEntries().filter((e) => e.s === 'sent').length;
        } catch {
          return 0;
        }
      })();
      if (sent >= 20) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const summary = JSON.parse(out);
    expect(summary.rows).toBe(ROWS);
    expect(summary.created).toBeGreaterThanOrEqual(20);
    expect(summary.created).toBeLessThan(ROWS);
    expect(summary.not_started).toBe(ROWS - summary.created);
    expect(journalEntries().filter((e) => e.s === 'sent')).toHaveLength(summary.created);
  }, 90_000);
});
