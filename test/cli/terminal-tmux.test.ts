// What a person sees in a real terminal (tmux, 80 columns, the built binary): NO_COLOR turns off
// every colour and style, and a list longer than the screen goes through the pager.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
// The pane runs a script file, so that the tmux server's own command line names no esign command.
const data = tempDir('tty-');
let n = 0;
let slug = '';
// A server of its own (its own socket, outside the data directory): other tests' servers come and go.
const sockets = tempDir('tty-sock-');
const socket = join(sockets.dir, 'tmux.sock');
const tmux = (...args: string[]) => execa('tmux', ['-S', socket, ...args], { reject: false });

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  for (let i = 0; i < 30; i++) slug = (await engine.createBundle(bundleRequest({ label: `Agreement ${i}` }))).id;
  await engine.close();
});
afterAll(async () => {
  await tmux('kill-server');
  data.cleanup();
  sockets.cleanup();
});

const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const esignCmd = (env: string, args: string) =>
  `env ${env} ESIGN_DATA_DIR=${sh(data.dir)} ESIGN_CONFIG_DIR=${sh(data.dir)} ${sh(process.execPath)} ${sh(BIN)} ${args}`;

/** Runs a shell command line in a new 80x24 tmux pane; returns the session name. */
async function pane(cmd: string): Promise<string> {
  const session = `pane-${n++}`;
  const script = join(sockets.dir, `${session}.sh`);
  writeFileSync(script, `${cmd}; echo __done__; sleep 60\n`);
  const made = await tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '24', `sh ${sh(script)}`);
  if (made.exitCode) throw new Error(`tmux new-session: ${made.stderr}`);
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
