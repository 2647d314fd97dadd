// What a person sees in a real terminal (tmux, 80 columns, the built binary): NO_COLOR turns off
// every colour and style, a list longer than the screen goes through the pager, and Ctrl-C during
// batch send gives the terminal back (cursor shown, line wrap on) with a summary.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, fixture, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const data = tempDir('esign-term-');
let n = 0;
let slug = '';
// A server of its own (its own socket): other tests' tmux servers come and go.
const socket = join(data.dir, 'tmux.sock');
const tmux = (...args: string[]) => execa('tmux', ['-S', socket, ...args], { reject: false });

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  for (let i = 0; i < 30; i++) slug = (await engine.createBundle(bundleRequest({ label: `Agreement ${i}` }))).id;
  await engine.close();
});
afterAll(async () => {
  await tmux('kill-server');
  data.cleanup();
});

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const esignCmd = (env: string, args: string) =>
  `env ${env} ESIGN_DATA_DIR=${sh(data.dir)} ESIGN_CONFIG_DIR=${sh(data.dir)} ${sh(process.execPath)} ${sh(BIN)} ${args}`;

/** Runs a shell command line in a new 80x24 tmux pane; returns the session name. */
async function pane(cmd: string): Promise<string> {
  const session = `esign-term-${process.pid}-${n++}`;
  await tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', `${cmd}; echo __done__; sleep 60`);
  return session;
}

async function screen(session: string, until: (s: string) => boolean, escapes = false): Promise<string> {
  let s = '';
  for (let i = 0; i < 300; i++) {
    const c = await tmux('capture-pane', '-t', session, '-p', ...(escapes ? ['-e'] : []));
    if (c.exitCode) throw new Error(`tmux capture-pane: ${c.stderr}`);
    s = c.stdout;
    if (until(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  return s;
}

const SGR = /\x1b\[[0-9;]*m/;

describe.skipIf(!hasTmux && !process.env.CI)('a real terminal', () => {
  it('Ctrl-C during batch send shows the cursor again, turns line wrap back on and prints a summary; the bar fits 80 columns', async () => {
    const rows = join(data.dir, 'rows.csv');
    writeFileSync(rows, `label,custom_key\n${Array.from({ length: 400 }, (_, i) => `Row ${i},ctrl-c-${i}`).join('\n')}\n`);
    writeFileSync(join(data.dir, 'spec.json'), JSON.stringify({
      packets: [{ key: 'a', name: 'Ada', email: 'ada@example.com' }], documents: [{ key: 'c', file_path: fixture('contract.pdf') }],
    }));
    const session = await pane(esignCmd('NO_COLOR=1', `batch send ${sh(rows)} --spec ${sh(join(data.dir, 'spec.json'))} --yes`));
    const during = await screen(session, (s) => /Sending .* \d+\/400/.test(s));
    for (const line of during.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    const flags = async () => (await tmux('display', '-p', '-t', session, '#{cursor_flag} #{wrap_flag}')).stdout;
    expect(await flags()).toBe('0 0');
    await tmux('send-keys', '-t', session, 'C-c');
    await new Promise((r) => setTimeout(r, 300));
    await tmux('send-keys', '-t', session, 'C-c');
    const after = await screen(session, (s) => s.includes('__done__'));
    expect(await flags()).toBe('1 1');
    expect(after).toMatch(/Interrupted: \d+ of 400 rows done|not started/);
  }, 90_000);

  it('NO_COLOR=1 turns off every colour and style (bold headers, cyan states); without it they are on', async () => {
    const plain = await pane(esignCmd('NO_COLOR=1', `bundle get ${slug}`));
    const p = await screen(plain, (s) => s.includes('__done__'), true);
    expect(p).toMatch(new RegExp(`^id +${slug}$`, 'm'));
    expect(p).not.toMatch(SGR);
    const coloured = await pane(esignCmd('TERM=xterm-256color', `bundle get ${slug}`));
    expect(await screen(coloured, (s) => s.includes('__done__'), true)).toMatch(SGR);
  }, 60_000);

  it('pages a list longer than the screen through ESIGN_PAGER; --no-pager and a pipe do not', async () => {
    const paged = await pane(esignCmd(`ESIGN_PAGER=${sh('sed s/^/PAGED:/ | tail -3')}`, 'bundle list'));
    const s = await screen(paged, (x) => x.includes('__done__'));
    expect(s).toMatch(/^PAGED:\S{10} {2}Sent {4}Agreement \d+/m);
    const direct = await pane(esignCmd(`ESIGN_PAGER=${sh('sed s/^/PAGED:/')}`, 'bundle list --no-pager | tail -3'));
    expect(await screen(direct, (x) => x.includes('__done__'))).not.toContain('PAGED:');
    const noTty = await pane(`${esignCmd(`ESIGN_PAGER=${sh('sed s/^/PAGED:/')}`, 'bundle list')} | tail -2`);
    expect(await screen(noTty, (x) => x.includes('__done__'))).not.toContain('PAGED:');
  }, 60_000);

});
