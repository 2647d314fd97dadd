// What only a real process shows: a reader that closes the pipe early, Ctrl-C, and what is left after exit.
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { argv, fixture, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const ENGINE = new URL('../../dist/engine.js', import.meta.url).href;

/**
 * A script using the built engine as a library: it starts rendering a large HTML document, says its
 * child processes' pids, and then exits while the render runs, or (`hold`) waits to be killed.
 */
const MID_RENDER = (then: 'exit' | 'hold') => `
import { readdirSync, readFileSync } from 'node:fs';
import { LocalEngine } from '${ENGINE}';
const children = () => readdirSync('/proc/self/task').flatMap((t) =>
  readFileSync('/proc/self/task/' + t + '/children', 'utf8').split(/\\s+/).filter(Boolean));
const engine = new LocalEngine({ dataDir: process.argv[1] });
const row = '<tr><td>cell one</td><td>cell two</td><td>a third cell</td></tr>';
await engine.createBundle({
  packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
  documents: [{ key: 'd', file_html: '<table>' + row.repeat(150000) + '</table>', html_fields_mode: 'none' }],
});
while (children().length === 0) await new Promise((r) => setTimeout(r, 20));
await new Promise((r) => setTimeout(r, 300));
console.log(children().join(' '));
${then === 'exit' ? 'process.exit(0);' : 'setInterval(() => {}, 1000);'}
`;

/** A process ended: gone, or a zombie its new parent has not reaped (a container's init may never). */
const ended = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
};

/**
 * What a run with TMPDIR `tmp` left: sandbox directories there, and processes whose command line
 * names it, once both are empty or within 3 s. A killed process must still be scheduled to die (at
 * nice 10, beside a second run of the suite), while the render it was killed in takes 12 s alone.
 */
async function leftAfter(tmp: string): Promise<{ left: string[]; running: string[] }> {
  let left = leftIn(tmp);
  for (const start = Date.now(); (left.left.length || left.running.length) && Date.now() - start < 3000; ) {
    await new Promise((r) => setTimeout(r, 50));
    left = leftIn(tmp);
  }
  return left;
}

function leftIn(tmp: string): { left: string[]; running: string[] } {
  const left = readdirSync(tmp).filter((f) => f.startsWith('esign-sandbox-'));
  const running = readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(tmp);
      } catch {
        return false; // ended between the two reads
      }
    });
  return { left, running };
}
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

  it('leaves no document sandbox behind: a process exiting mid-render ends the render and removes its directory', async () => {
    const tmp = tempDir('esign-process-tmp-');
    const dir = tempDir('esign-process-data-');
    try {
      // The built-in renderer (no Chromium on PATH): its parse of 7 MB holds the sandbox process for seconds.
      const r = await execa('node', ['--input-type=module', '-e', MID_RENDER('exit'), dir.dir], {
        env: { PATH: dirname(process.execPath), TMPDIR: tmp.dir },
        extendEnv: false,
        reject: false,
      });
      expect(r.exitCode, r.stderr).toBe(0);
      // The render's process had its directory in TMPDIR, and its command line names it.
      expect(await leftAfter(tmp.dir)).toEqual({ left: [], running: [] });
    } finally {
      tmp.cleanup();
      dir.cleanup();
    }
  });

  it('takes its document sandbox with it when killed mid-render (SIGKILL), a stopped one too, and the next esign removes its directory', async () => {
    const tmp = tempDir('esign-process-tmp-');
    const dir = tempDir('esign-process-data-');
    const env = { PATH: dirname(process.execPath), TMPDIR: tmp.dir };
    try {
      const host = execa('node', ['--input-type=module', '-e', MID_RENDER('hold'), dir.dir], {
        env,
        extendEnv: false,
        reject: false,
      });
      const [said] = (await once(host.stdout!, 'data')) as [Buffer];
      const sandboxes = said.toString().trim().split(' ').map(Number);
      expect(sandboxes).toHaveLength(1);
      // Once node runs (prlimit, nice and setpriv exec'd: the parent-death signal is set), stopped, it
      // cannot hear its host go: only a signal from the kernel ends it.
      await vi.waitFor(
        () => expect(readFileSync(`/proc/${sandboxes[0]}/cmdline`, 'utf8')).toContain('documentSandbox.js'),
        { timeout: 10_000 },
      );
      process.kill(sandboxes[0]!, 'SIGSTOP');
      host.kill('SIGKILL');
      await host;
      for (const start = Date.now(); !sandboxes.every(ended) && Date.now() - start < 5000; )
        await new Promise((r) => setTimeout(r, 50));
      expect(sandboxes.filter((p) => !ended(p))).toEqual([]);
      expect(leftIn(tmp.dir).left).toHaveLength(1);
      // The next host's first sandbox process sweeps the dead one's directory (its own goes as it exits).
      const next = await execa('node', ['--input-type=module', '-e', MID_RENDER('exit'), dir.dir], {
        env,
        extendEnv: false,
        reject: false,
      });
      expect(next.exitCode, next.stderr).toBe(0);
      expect(await leftAfter(tmp.dir)).toEqual({ left: [], running: [] });
    } finally {
      tmp.cleanup();
      dir.cleanup();
    }
  });
});
