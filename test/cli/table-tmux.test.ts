// A real terminal: `esign bundle list` in an 80-column tmux pane (built binary) fits the pane, and
// names in scripts whose characters take two columns are measured as the terminal draws them.
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { bundleRequest, tempDir } from '../helpers.js';

const BIN = new URL('../../bin/esign.js', import.meta.url).pathname;
const hasTmux = (await execa('tmux', ['-V'], { reject: false }).catch(() => ({ exitCode: 1 }))).exitCode === 0;
const data = tempDir('esign-tmux-');
// A tmux server of its own: other tests start and stop theirs.
const sockets = tempDir('esign-tmux-sock-');
const tmux = (...args: string[]) => execa('tmux', ['-S', `${sockets.dir}/tmux.sock`, ...args], { reject: false });
const wide = tempDir('esign-tmux-wide-');
const ids: string[] = [];
const LABEL = '北部地域の基本サービス契約書、二〇二五年度更新版';

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  ids.push(
    (await engine.createBundle(bundleRequest({ label: 'Master services agreement, northern region renewal 2025' }))).id,
  );
  await engine.addBundleTags(ids[0], ['legal', 'renewal', 'priority-customer']);
  await engine.close();
  const other = new LocalEngine({ dataDir: wide.dir });
  await other.createBundle(
    bundleRequest({ label: LABEL, packets: [{ key: 's', name: '山田 太郎', email: 'yamada@example.com' }] }),
  );
  await other.createBundle(
    bundleRequest({
      label: 'Hợp đồng thuê nhà',
      packets: [{ key: 's', name: 'Nguyễn Thị Minh Khai', email: 'k@example.com' }],
    }),
  );
  await other.close();
});

/** The pane's lines after `esign bundle list` ran in a `columns`-wide tmux pane on `dir`. */
async function listIn(dir: string, columns: number): Promise<string[]> {
  const session = `esign-test-${process.pid}-${columns}`;
  const cmd = `env NO_COLOR=1 ESIGN_DATA_DIR='${dir}' ESIGN_CONFIG_DIR='${dir}' '${process.execPath}' '${BIN}' bundle list; echo __done__; sleep 30`;
  await tmux('new-session', '-d', '-s', session, '-x', String(columns), '-y', '20', cmd);
  let screen = '';
  for (let i = 0; i < 100 && !screen.includes('__done__'); i++) {
    await new Promise((r) => setTimeout(r, 100));
    screen = (await tmux('capture-pane', '-t', session, '-p')).stdout;
  }
  await tmux('kill-session', '-t', session);
  return screen.split('\n').filter((l) => l.trim() && l !== '__done__');
}
afterAll(async () => {
  await tmux('kill-server');
  data.cleanup();
  wide.cleanup();
  sockets.cleanup();
});

// CI installs tmux (.ci/run): there the test runs, never skips.
it.skipIf(!hasTmux && !process.env.CI)('bundle list fits an 80-column terminal', async () => {
  const lines = await listIn(data.dir, 80);
  expect(lines[0]).toMatch(/^ID\s+STATUS\s+LABEL\s+SIGNERS\s+TAGS\s+CREATED$/);
  expect(lines[1].startsWith(`${ids[0]}  Sent`)).toBe(true);
  expect(lines[1]).toContain('…');
  expect(lines[1]).toMatch(/just now$/);
  // One line per row: nothing wrapped.
  expect(lines).toHaveLength(2);
  for (const l of lines) expect([...l].length).toBeLessThanOrEqual(80);
});

it.skipIf(!hasTmux && !process.env.CI)(
  'names two columns wide per character are shown whole when they fit, and cut to fit when not',
  async () => {
    const roomy = await listIn(wide.dir, 120);
    // One line per row: nothing wrapped, and nothing cut that had room.
    expect(roomy).toHaveLength(3);
    expect(roomy.join('\n')).toContain(LABEL);
    expect(roomy.join('\n')).toContain('山田 太郎');
    expect(roomy.join('\n')).not.toContain('…');
    const narrow = await listIn(wide.dir, 60);
    expect(narrow[0]).toMatch(/^ID +STATUS +LABEL +SIGNERS +CREATED$/);
    for (const row of narrow.slice(1, 3)) expect(row).toMatch(/… {2}.*just now$/);
    // The note under it is broken at a space to the pane's width, not by the terminal mid-word.
    expect(narrow.slice(3).join(' ')).toBe('(TAGS left out to fit 60 columns; --json or a pipe shows all)');
  },
);
