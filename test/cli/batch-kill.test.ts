// A batch killed with SIGKILL at random points, several times, then resumed: exactly one Bundle per
// row. Real processes (bin/esign.js on dist/: npm run build first) on one data directory.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module
import { crashWindowEnv } from '../../bench/lib.mjs';
import { useBatchDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN } from './serveProcess.js';

const ROWS = 40;
const { data, env } = useBatchDir('esign-batch-kill-', 'Waiver', ROWS);

/** Runs the batch; with `afterIds`, SIGKILLs it a random few ms after it has printed that many created ids. */
function sendAndKill(afterIds: number | undefined): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    const child = spawn(
      'node',
      [BIN, 'batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--concurrency', '3', '-q'],
      {
        cwd: data.dir,
        env: { ...process.env, ...env, ...(afterIds === undefined ? {} : crashWindowEnv(30)) },
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let ids = 0;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => (timer ??= setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 40)));
    if (afterIds === 0) arm();
    child.stdout.on('data', (d: Buffer) => {
      ids += d.toString().split('\n').filter(Boolean).length;
      if (afterIds !== undefined && ids >= afterIds) arm();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

describe('batch send killed with SIGKILL, then resumed', () => {
  it('creates exactly one Bundle per row', async () => {
    let killed = 0;
    const sentAfterKill: number[] = [];
    // Random points from start-up to deep into the run; each run resumes the journal of the last.
    for (let run = 0; run < 6; run++) {
      const r = await sendAndKill(Math.floor(Math.random() * 8));
      if (r.signal !== 'SIGKILL') continue;
      killed++;
      const s = await esignIn(['batch', 'status', '--json'], { env });
      sentAfterKill.push(s.stdout ? (JSON.parse(s.stdout)[0]?.sent ?? 0) : 0);
    }
    expect(killed).toBeGreaterThan(2);
    // Some kills landed mid-batch (not all before the first row, not all after the last).
    expect(
      sentAfterKill.some((n) => n > 0 && n < ROWS),
      sentAfterKill.join(','),
    ).toBe(true);
    const last = await sendAndKill(undefined);
    // Some kills left created rows marked in flight: the resume found them by custom_key.
    expect(last.code).toBe(0);
    const list = await esignIn(['bundle', 'list', '--all', '--per-page', '100', '--json'], { env });
    const bundles = JSON.parse(list.stdout) as { custom_key: string; label: string }[];
    const keys = bundles.map((b) => b.custom_key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(bundles).toHaveLength(ROWS);
    expect(new Set(bundles.map((b) => b.label))).toEqual(
      new Set(Array.from({ length: ROWS }, (_, i) => `Waiver ${i + 1}`)),
    );
    const status = await esignIn(['batch', 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)[0]).toMatchObject({ sent: ROWS, failed: 0, in_flight: 0 });
  }, 120_000);
});
