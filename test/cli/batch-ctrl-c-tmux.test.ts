// Ctrl-C during batch send in a real terminal (tmux, 80 columns, the built binary): the bar fits the
// width, and the terminal is given back (cursor shown, line wrap on) with a summary, even when a
// second Ctrl-C ends the process at once.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const data = tempDir('tty-batch-');
const sockets = tempDir('tty-batch-sock-');
const tmux = (...args: string[]) => execa('tmux', ['-S', join(sockets.dir, 'tmux.sock'), ...args], { reject: false });
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const session = 'batch';

afterAll(async () => {
  await tmux('kill-server');
  data.cleanup();
  sockets.cleanup();
});

async function screen(until: (s: string) => boolean): Promise<string> {
  let s = '';
  for (let i = 0; i < 300; i++) {
    const c = await tmux('capture-pane', '-t', session, '-p');
    if (c.exitCode) throw new Error(`tmux capture-pane: ${c.stderr}`);
    s = c.stdout;
    if (until(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  return s;
}

describe.skipIf(!hasTmux && !process.env.CI)('batch send in a real terminal', () => {
  it('Ctrl-C during batch send shows the cursor again, turns line wrap back on and prints a summary; the bar fits 80 columns', async () => {
    const rows = join(sockets.dir, 'rows.csv');
    writeFileSync(
      rows,
      `label,custom_key\n${Array.from({ length: 4000 }, (_, i) => `Row ${i},ctrl-c-${i}`).join('\n')}\n`,
    );
    writeFileSync(
      join(sockets.dir, 'spec.json'),
      JSON.stringify({
        packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }],
        documents: [{ key: 'c', file_path: fixture('contract.pdf') }],
      }),
    );
    const cmd = `env NO_COLOR=1 ESIGN_DATA_DIR=${sh(data.dir)} ${sh(process.execPath)} ${sh(BIN)} batch send ${sh(rows)} --spec ${sh(join(sockets.dir, 'spec.json'))} --yes`;
    const script = join(sockets.dir, 'run.sh');
    // The shell outlives the Ctrl-Cs (a trap, not an ignore: esign still gets SIGINT) to show what is left.
    writeFileSync(script, `trap true INT; ${cmd}; echo __done__; while :; do sleep 1; done\n`);
    await tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', `sh ${sh(script)}`);
    const during = await screen((s) => /Sending .* [1-9]\d*\/4000/.test(s));
    for (const line of during.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    const flags = async () => (await tmux('display', '-p', '-t', session, '#{cursor_flag} #{wrap_flag}')).stdout;
    expect(await flags()).toBe('0 0');
    // Two at once: the second ends the process before the batch has drained.
    await tmux('send-keys', '-t', session, 'C-c', 'C-c');
    const after = await screen((s) => s.includes('__done__'));
    expect(await flags()).toBe('1 1');
    expect(after).toMatch(/Interrupted: \d+ of 4000 rows done|not started/);
  }, 90_000);
});
