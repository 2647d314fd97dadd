// What only a real process shows: a reader that closes the pipe early, and Ctrl-C.
import { once } from 'node:events';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { argv, fixture, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
let data: ReturnType<typeof tempDir>;

beforeAll(async () => {
  data = tempDir('esign-process-');
  await esignIn(['bundle', 'create', '--file', fixture('contract.pdf'), '--signer', 'Ada <ada@example.com>'], {
    env: { ESIGN_DATA_DIR: data.dir },
  });
});
afterAll(() => data.cleanup());

describe('esign as a process', () => {
  it('ends quietly with exit 0 when the reader has closed the pipe (esign bundle list --json | true)', async () => {
    // `true` exits before esign has started, so every write meets a closed pipe.
    const r = await execa(
      'bash',
      ['-c', `node "${BIN}" bundle list --json | true; echo "esign exit \${PIPESTATUS[0]}" >&2`],
      {
        env: { ESIGN_DATA_DIR: data.dir, NO_COLOR: '1' },
        reject: false,
      },
    );
    expect(r.stderr).toBe('esign exit 0');
  });

  it('exits 130 on Ctrl-C (SIGINT)', async () => {
    // webhook verify waits for the body on stdin, which stays open; the signal comes once esign listens for it.
    const ready = new URL('./sigintReady.cjs', import.meta.url).pathname;
    const p = execa(
      'node',
      ['--require', ready, BIN, ...argv`webhook verify --secret s --signature v0=00 --timestamp 1`],
      {
        env: { ESIGN_DATA_DIR: data.dir, NO_COLOR: '1' },
        reject: false,
        stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
      },
    );
    await once(p.stdio[3]!, 'data');
    p.kill('SIGINT');
    const r = await p;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toBe('');
  });
});
