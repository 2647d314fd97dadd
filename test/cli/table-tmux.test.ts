// A real terminal: `esign bundle list` in an 80-column tmux pane (built binary) fits the pane.
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const data = tempDir('esign-tmux-');
const session = `esign-test-${process.pid}`;
// A tmux server of its own: other tests start and stop theirs.
const sockets = tempDir('esign-tmux-sock-');
const tmux = (...args: string[]) => execa('tmux', ['-S', `${sockets.dir}/tmux.sock`, ...args], { reject: false });
const ids: string[] = [];

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  ids.push(
    (await engine.createBundle(bundleRequest({ label: 'Master services agreement, northern region renewal 2025' }))).id,
  );
  await engine.addBundleTags(ids[0], ['legal', 'renewal', 'priority-customer']);
  await engine.close();
});
afterAll(async () => {
  await tmux('kill-server');
  data.cleanup();
  sockets.cleanup();
});

// CI installs tmux (.ci/run): there the test runs, never skips.
it.skipIf(!hasTmux && !process.env.CI)(
  'bundle list fits an 80-column terminal',
  async () => {
    const cmd = `env NO_COLOR=1 ESIGN_DATA_DIR='${data.dir}' ESIGN_CONFIG_DIR='${data.dir}' '${process.execPath}' '${BIN}' bundle list; echo __done__; sleep 30`;
    await tmux('new-session', '-d', '-s', session, '-x', '80', '-y', '20', cmd);
    let screen = '';
    for (let i = 0; i < 100 && !screen.includes('__done__'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      screen = (await tmux('capture-pane', '-t', session, '-p')).stdout;
    }
    const lines = screen.split('\n').filter((l) => l.trim() && l !== '__done__');
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+LABEL\s+SIGNERS\s+TAGS\s+CREATED$/);
    expect(lines[1].startsWith(`${ids[0]}  Sent`)).toBe(true);
    expect(lines[1]).toContain('…');
    expect(lines[1]).toMatch(/just now$/);
    // One line per row: nothing wrapped.
    expect(lines).toHaveLength(2);
    for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
  },
  30_000,
);
