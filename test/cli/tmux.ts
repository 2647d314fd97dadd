// A real terminal for tests: a tmux server of the test file's own (its own socket), panes of a given
// size running the built binary, and what the pane shows. Each pane runs a script file, so that the
// tmux server's own command line names no esign command.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll } from 'vitest';
import { tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
/** CI installs tmux (.ci/run): there a tmux test runs, never skips. */
export const skipTmux = !hasTmux && !process.env.CI;

export const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function useTmux() {
  const sockets = tempDir('esign-tmux-');
  const socket = join(sockets.dir, 'tmux.sock');
  const tmux = (...args: string[]) => execa('tmux', ['-S', socket, ...args], { reject: false });
  let n = 0;
  afterAll(async () => {
    await tmux('kill-server');
    sockets.cleanup();
  });

  /** Runs a shell command line in a new pane; returns the session name. */
  async function pane(cmd: string, size: [number, number] = [80, 24]): Promise<string> {
    const session = `pane-${n++}`;
    const script = join(sockets.dir, `${session}.sh`);
    writeFileSync(script, `${cmd}; echo __done__; sleep 60\n`);
    const made = await tmux(
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      String(size[0]),
      '-y',
      String(size[1]),
      `sh ${sh(script)}`,
    );
    if (made.exitCode) throw new Error(`tmux new-session: ${made.stderr}`);
    return session;
  }

  /** What the pane shows once `until` holds (or after 30 s), its whole history included. */
  async function screen(
    session: string,
    until: (s: string) => boolean = (s) => s.includes('__done__'),
  ): Promise<string> {
    let s = '';
    for (let i = 0; i < 300; i++) {
      const c = await tmux('capture-pane', '-t', session, '-p', '-S', '-');
      if (c.exitCode) throw new Error(`tmux capture-pane: ${c.stderr}`);
      s = c.stdout;
      if (until(s)) return s;
      await new Promise((r) => setTimeout(r, 100));
    }
    return s;
  }

  /** Runs `cmd` in a pane and returns the lines it showed (blank ones and the end marker dropped). */
  async function run(cmd: string, size?: [number, number]): Promise<string[]> {
    const s = await screen(await pane(cmd, size));
    return s.split('\n').filter((l) => l.trim() && l !== '__done__');
  }

  return { pane, screen, run };
}

/** An esign command line for a pane: the built binary on `dataDir`, with `env` (NAME=value words). */
export const esignLine = (dataDir: string, env: string, args: string) =>
  `env NO_COLOR=1 ${env} ESIGN_DATA_DIR=${sh(dataDir)} ESIGN_CONFIG_DIR=${sh(dataDir)} ${sh(process.execPath)} ${sh(BIN)} ${args}`;
