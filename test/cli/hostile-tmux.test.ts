// A real terminal: `esign bundle wait` in a tmux pane draws its live line for a Bundle whose label
// carries escape sequences (retitle the window, clear the screen, home the cursor): the pane keeps
// its title and what was on it, and the line shows the label's printable text (built binary).
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const data = tempDir('esign-tmux-hostile-');
const session = `esign-hostile-${process.pid}`;
let id = '';

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  const b = await engine.createBundle(
    bundleRequest({ label: 'Evil\x1b]2;pwned\x07\x1b]0;pwned\x07\x1b[2J\x1b[Hlabel' }),
  );
  await engine.settle();
  id = b.id;
  await engine.close();
});
afterAll(async () => {
  await execa('tmux', ['kill-session', '-t', session], { reject: false });
  data.cleanup();
});

it.skipIf(!hasTmux && !process.env.CI)(
  'bundle wait: a hostile label neither retitles nor clears the terminal',
  async () => {
    const cmd =
      `printf '__before__\\n'; env NO_COLOR=1 ESIGN_DATA_DIR='${data.dir}' ESIGN_CONFIG_DIR='${data.dir}' '${process.execPath}' '${BIN}' ` +
      `bundle wait ${id} --until sent --timeout 20s; echo __done__; sleep 30`;
    await execa('tmux', ['new-session', '-d', '-s', session, '-x', '120', '-y', '20', cmd]);
    await execa('tmux', ['select-pane', '-t', session, '-T', 'esign-test-title']);
    let screen = '';
    for (let i = 0; i < 150 && !screen.includes('__done__'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      screen = (await execa('tmux', ['capture-pane', '-t', session, '-p'])).stdout;
    }
    expect(screen).toContain('__done__');
    const title = (await execa('tmux', ['display-message', '-p', '-t', session, '#{pane_title}'])).stdout;
    expect(title).not.toContain('pwned');
    const lines = screen.split('\n').filter((l) => l.trim());
    // Nothing above the live line was cleared, and the line is the label's printable text.
    expect(lines[0]).toBe('__before__');
    expect(lines[1]).toMatch(new RegExp(`^${id}  Sent  0/2 signed  \\(waiting for sent, 0 s\\)  Evillabel$`));
  },
);
