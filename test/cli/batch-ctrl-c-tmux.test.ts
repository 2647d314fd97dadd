// batch send in a real terminal (tmux, 80 columns, the built binary): the bar fits the width and is
// drawn from its own state, a remote server's 429 is said in the bar's note slot (not on lines of
// its own above it) and the bar stays whole at the bottom; Ctrl-C gives the
// cursor back and counts the rows as the journal holds them, which is what the resume then finds.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/app/batch/journal.js';
import { fixture, tempDir } from '../helpers.js';
import { serveBackend } from './backends.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const data = tempDir('tty-batch-');
const sockets = tempDir('tty-batch-sock-');
const tmux = (...args: string[]) => execa('tmux', ['-S', join(sockets.dir, 'tmux.sock'), ...args], { reject: false });
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

afterAll(async () => {
  await tmux('kill-server');
  data.cleanup();
  sockets.cleanup();
});

async function screen(session: string, until: (s: string) => boolean, tries = 300): Promise<string> {
  let s = '';
  for (let i = 0; i < tries; i++) {
    const c = await tmux('capture-pane', '-t', session, '-p');
    if (c.exitCode) throw new Error(`tmux capture-pane: ${c.stderr}`);
    s = c.stdout;
    if (until(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  return s;
}

/** A CSV of `n` rows and a spec sending contract.pdf to Ada, in `dir`. */
function batchFiles(dir: string, n: number, prefix: string): { rows: string; spec: string } {
  const rows = join(dir, `${prefix}.csv`);
  writeFileSync(
    rows,
    `label,custom_key\n${Array.from({ length: n }, (_, i) => `Row ${i},${prefix}-${i}`).join('\n')}\n`,
  );
  const spec = join(dir, `${prefix}.json`);
  writeFileSync(
    spec,
    JSON.stringify({
      packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
      documents: [{ key: 'c', file_path: fixture('contract.pdf') }],
    }),
  );
  return { rows, spec };
}

/** Runs `cmd` in a new 80x24 tmux session; the shell outlives the Ctrl-Cs (a trap: esign still gets SIGINT). */
async function inTerminal(session: string, cmd: string): Promise<void> {
  const script = join(sockets.dir, `${session}.sh`);
  writeFileSync(script, `trap true INT; ${cmd}; echo __done__; while :; do sleep 1; done\n`);
  await tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', `sh ${sh(script)}`);
}

const flags = async (session: string) =>
  (await tmux('display', '-p', '-t', session, '#{cursor_flag} #{wrap_flag}')).stdout;

/** The rows a journal file holds as sent. */
function sentInJournal(dir: string): number {
  const [file] = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  return [...readJournal(join(dir, file)).rows.values()].filter((e) => e.s === 'sent').length;
}

describe.skipIf(!hasTmux && !process.env.CI)('batch send in a real terminal', () => {
  it('Ctrl-C twice shows the cursor again and says what the journal holds; the bar fits 80 columns', async () => {
    const { rows, spec } = batchFiles(sockets.dir, 4000, 'ctrl-c');
    const dir = join(data.dir, 'local');
    await inTerminal(
      'local',
      `env NO_COLOR=1 ESIGN_DATA_DIR=${sh(dir)} ${sh(process.execPath)} ${sh(BIN)} batch send ${sh(rows)} --spec ${sh(spec)} --yes`,
    );
    const during = await screen('local', (s) => /Sending .* [1-9]\d*\/4000/.test(s));
    for (const line of during.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(await flags('local')).toBe('0 1');
    // Two at once: the second ends the process before the batch has drained.
    await tmux('send-keys', '-t', 'local', 'C-c', 'C-c');
    const after = await screen('local', (s) => s.includes('__done__'));
    expect(await flags('local')).toBe('1 1');
    const said = /Interrupted: (\d+) of 4000 rows sent/.exec(after) ?? /(\d+) not started\./.exec(after);
    expect(said, after).not.toBeNull();
    if (after.includes('rows sent')) expect(Number(said![1])).toBe(sentInJournal(join(dir, 'batches')));
  }, 90_000);

  it("a remote server's 429s are said in the bar's note slot, not on lines above it; Ctrl-C counts what the resume finds", async () => {
    // Four creates in each 2 s window, and a batch told it may go far faster: the server answers 429s.
    const remote = await serveBackend({ rateLimits: { createLimit: 4, windowSeconds: 2 } });
    try {
      const { rows, spec } = batchFiles(sockets.dir, 20, 'remote');
      const dir = join(data.dir, 'remote');
      const env = Object.entries({ ...remote.env, ESIGN_DATA_DIR: dir, NO_COLOR: '1' })
        .map(([k, v]) => `${k}=${sh(v)}`)
        .join(' ');
      const args = ['batch', 'send', rows, '--spec', spec, '--yes', '--live', '--rate', '100/1', '--concurrency', '1'];
      await inTerminal('remote', `env ${env} ${sh(process.execPath)} ${sh(BIN)} ${args.map(sh).join(' ')}`);
      // A 429 is said in the bar's note slot, not on a line of its own above it (five lines for 20 rows, before).
      const noted = await screen('remote', (s) => /\| 429: resuming in \d+s/.test(s));
      const lines = noted.split('\n').filter((l) => l.trim());
      expect(
        lines.filter((l) => /HTTP 429|retrying in/.test(l)),
        noted,
      ).toEqual([]);
      expect(
        lines.filter((l) => l.includes('Sending')),
        noted,
      ).toHaveLength(1);
      expect(lines.at(-1), noted).toMatch(
        /^Sending [\u2588\u2591]+ \d+\/20 \| created \d+ skipped \d+ failed \d+ \| 429: resuming in \d+s( \|.*)?$/,
      );

      // The first Ctrl-C stops new rows (those in flight finish); the second, a moment later, ends the process at once.
      await tmux('send-keys', '-t', 'remote', 'C-c');
      await new Promise((r) => setTimeout(r, 300));
      await tmux('send-keys', '-t', 'remote', 'C-c');
      const after = await screen('remote', (s) => s.includes('__done__'));
      expect(await flags('remote')).toBe('1 1');
      const batches = join(dir, 'remote', readdirSync(join(dir, 'remote'))[0], 'batches');
      const hard = /Interrupted: (\d+) of 20 rows sent/.exec(after);
      const soft = /created +(\d+)\n/.exec(after);
      expect(hard ?? soft, after).not.toBeNull();
      // Either way, what was said is what the journal holds.
      const said = Number((hard ?? soft)![1]);
      expect(said).toBe(sentInJournal(batches));
      // The resume finds at least those rows sent (and any the interrupted creates had made), never fewer.
      const resumed = await execa(process.execPath, [BIN, ...args, '--json'], {
        env: { ...process.env, ...remote.env, ESIGN_DATA_DIR: dir },
        reject: false,
        timeout: 60_000,
      });
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      const summary = JSON.parse(resumed.stdout);
      expect(summary.skipped).toBeGreaterThanOrEqual(said);
      expect(summary.skipped + summary.created).toBe(20);
      expect(readFileSync(rows, 'utf8').split('\n').filter(Boolean)).toHaveLength(21);
    } finally {
      await remote.close();
    }
  }, 120_000);
});
