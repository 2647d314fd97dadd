// The batch lock: claimed atomically, released by the OS when its holder dies (kill -9 included), and
// never given to a second sender because of what a lock file reads as (empty, torn, a recycled pid).
// The spawned runs use bin/esign.js on dist/ (npm run build first).
import { spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module (bench/security.mjs calls it too)
import { doubleResumeTrials } from '../../bench/batch-resume-race.mjs';
import { BatchLock } from '../../src/app/batch/lock.js';
import { UseCaseError } from '../../src/app/failure.js';
import { EXIT, EXIT_FOR_FAILURE } from '../../src/cli/exitCodes.js';
import { tempDir, useBatchDir } from '../helpers.js';
import { esignIn } from './inProcess.js';
import { BIN } from './serveProcess.js';

describe('BatchLock', () => {
  it('lets one holder in; a second claim is CONFLICT naming the holder, until it is released', () => {
    const d = tempDir('esign-batch-lock-');
    try {
      const a = BatchLock.claim(d.dir, 'b1');
      let err: unknown;
      try {
        BatchLock.claim(d.dir, 'b1');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UseCaseError);
      expect(EXIT_FOR_FAILURE[(err as UseCaseError).kind]).toBe(EXIT.CONFLICT);
      expect((err as UseCaseError).message).toBe(
        `Batch b1 is being sent by process ${process.pid}; wait for it, or stop it first.`,
      );
      // What the holder file reads as decides nothing: empty (a claim half-written), or a dead pid.
      for (const text of ['', '999999999']) {
        writeFileSync(join(d.dir, 'b1.lock'), text);
        expect(() => BatchLock.claim(d.dir, 'b1')).toThrow(/being sent by/);
      }
      // Another batch has its own lock.
      BatchLock.claim(d.dir, 'b2').release();
      a.release();
      BatchLock.claim(d.dir, 'b1').release();
    } finally {
      d.cleanup();
    }
  });
});

const ROWS = 30;
const { data, env } = useBatchDir('esign-batch-lock-run-', 'Lock', ROWS);

/** `batch send` as a process; `onId` sees each created id as it is printed. */
function send(
  extraEnv: Record<string, string>,
  onId?: (n: number) => void,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      'node',
      [BIN, 'batch', 'send', 'rows.csv', '--spec', 'spec.json', '--yes', '--concurrency', '1', '-q'],
      {
        cwd: data.dir,
        env: { ...process.env, ...env, ...extraEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let ids = 0;
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      ids += d.toString().split('\n').filter(Boolean).length;
      onId?.(ids);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('batch send and its lock, as processes', () => {
  it('a second sender is refused while the first runs, even when the lock file reads as empty (forced)', async () => {
    let second: Promise<{ code: number | null; stderr: string }> | undefined;
    // The first sender is slow (250 ms after each create: 7 s in all, so the second starts well within
    // it even on a loaded machine); once it has sent a row, the lock file
    // is emptied, as a reader sees it between an exclusive create and its write, and a second starts.
    const first = send({ ESIGN_BATCH_CRASH_WINDOW_MS: '250' }, (n) => {
      if (n !== 1 || second) return;
      const dir = join(env.ESIGN_DATA_DIR, 'batches');
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.lock'))) writeFileSync(join(dir, f), '');
      second = send({});
    });
    const a = await first;
    const b = await second!;
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(EXIT.CONFLICT);
    expect(b.stderr).toMatch(/^esign: Batch \w+ is being sent by another process; wait for it, or stop it first\.$/m);
    const bundles = JSON.parse(
      (await esignIn(['bundle', 'list', '--all', '--per-page', '100', '--json'], { env })).stdout,
    ) as { custom_key: string }[];
    expect(bundles).toHaveLength(ROWS);
    expect(new Set(bundles.map((x) => x.custom_key)).size).toBe(ROWS);
  }, 60_000);

  it('two resumers started at once after a kill -9 never both send a row (bench/batch-resume-race.mjs)', async () => {
    const r = await doubleResumeTrials({ trials: 3, rows: 20 });
    expect(r).toMatchObject({ killed: 3, duplicates: 0, missing: 0, otherExits: [] });
  }, 120_000);
});
