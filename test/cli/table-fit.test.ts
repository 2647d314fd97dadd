// Tables on a terminal fit its width (ids whole, the rest cut with an ellipsis, times short); piped
// output stays tab-separated with raw values and ISO times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import stringWidth from 'string-width';
import { cutLeft, fitLine, fitWidths, loadTerminalWidth, shortTime } from '../../src/cli/output/fit.js';
import { bundleRequest, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

const data = tempDir('esign-table-');
const env = {
  ESIGN_DATA_DIR: data.dir,
  ESIGN_BASE_URL: undefined,
  ESIGN_PROFILE: undefined,
  ESIGN_CONFIG_DIR: data.dir,
};
const ids: string[] = [];

beforeAll(async () => {
  const engine = new LocalEngine({ dataDir: data.dir });
  for (const label of ['Master services agreement for the northern region, renewal 2025', 'NDA'])
    ids.push((await engine.createBundle(bundleRequest({ label }))).id);
  await engine.addBundleTags(ids[0], ['legal', 'renewal', 'priority-customer', 'emea']);
  await engine.close();
});
afterAll(() => data.cleanup());

const visible = (s: string) => s.split('\n').map((l) => [...l].length);

describe('bundle list on a terminal', () => {
  for (const columns of [60, 80, 200]) {
    it(`fits ${columns} columns, ids whole, times short`, async () => {
      const r = await esignIn(['bundle', 'list'], { env, tty: true, columns });
      expect(r.exitCode).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines).toHaveLength(3);
      expect(Math.max(...visible(r.stdout))).toBeLessThanOrEqual(columns);
      for (const id of ids) expect(r.stdout).toContain(id);
      expect(r.stdout).not.toMatch(/\d{4}-\d\d-\d\dT/);
      expect(r.stdout).toMatch(/just now|\dm ago/);
      if (columns === 200) {
        expect(r.stdout).toContain('Master services agreement for the northern region, renewal 2025');
        expect(r.stdout).toContain('legal, renewal, priority-customer, emea');
        expect(r.stdout).not.toContain('…');
      } else expect(r.stdout).toContain('…');
      expect(lines[0]).toMatch(/^ID\s+STATUS\s+LABEL/);
    });
  }

  it('piped: tab-separated, raw status code and ISO time, whatever the width', async () => {
    const r = await esignIn(['bundle', 'list'], { env, columns: 40 });
    const row = r.stdout
      .split('\n')
      .find((l) => l.startsWith(ids[0]))!
      .split('\t');
    expect(row[0]).toBe(ids[0]);
    expect(row[2]).toBe('Master services agreement for the northern region, renewal 2025');
    expect(row[5]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  });
});

describe('names in many scripts on a terminal', () => {
  // A CJK character takes two columns, a combining mark none: widths are the terminal's, not code points.
  const wide = tempDir('esign-table-wide-');
  const wideEnv = { ...env, ESIGN_DATA_DIR: wide.dir, ESIGN_CONFIG_DIR: wide.dir };
  const LABELS = [
    '北部地域の基本サービス契約書、二〇二五年度更新版',
    'Hợp đồng thuê nhà, Nguyễn Thị Minh Khai',
    'अनुबंध पत्र, नवीनीकरण',
  ];
  const SIGNERS = ['山田 太郎', 'Nguyễn Thị Minh Khai', 'प्रिया शर्मा'];
  beforeAll(async () => {
    const engine = new LocalEngine({ dataDir: wide.dir });
    for (const [i, label] of LABELS.entries())
      await engine.createBundle(
        bundleRequest({ label, packets: [{ key: 's', name: SIGNERS[i], email: `s${i}@example.com` }] }),
      );
    await engine.close();
  });
  afterAll(() => wide.cleanup());

  it('are shown whole when they fit, and the columns line up', async () => {
    const r = await esignIn(['bundle', 'list'], { env: wideEnv, tty: true, columns: 160 });
    expect(r.exitCode).toBe(0);
    for (const name of [...LABELS, ...SIGNERS]) expect(r.stdout).toContain(name);
    expect(r.stdout).not.toContain('…');
    const lines = r.stdout.trimEnd().split('\n');
    const at = (l: string, s: string) => stringWidth(l.slice(0, l.lastIndexOf(s)));
    // Each row's signer starts in the SIGNERS column.
    for (const [i, name] of SIGNERS.entries())
      expect(at(lines.find((l) => l.includes(LABELS[i]!))!, name)).toBe(at(lines[0]!, 'SIGNERS'));
  });

  it('are cut to the columns they take, never past the terminal', async () => {
    const r = await esignIn(['bundle', 'list'], { env: wideEnv, tty: true, columns: 80 });
    expect(r.stdout).toContain('…');
    const widths = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => stringWidth(l));
    expect(Math.max(...widths)).toBeLessThanOrEqual(80);
    // Cut to fit, not cut short: the row with the widest label fills the line.
    expect(Math.max(...widths)).toBeGreaterThanOrEqual(78);
  });

  it('cuts a line or a path by columns, keeping whole characters', async () => {
    await loadTerminalWidth();
    expect(fitLine('山田太郎の契約', 8)).toBe('山田太…');
    expect(stringWidth(fitLine('山田太郎の契約', 8))).toBe(7);
    expect(cutLeft('/srv/署名済み/契約書.pdf', 14)).toBe('…み/契約書.pdf');
    expect(fitLine('Nguyễn Thị Minh Khai', 10)).toBe('Nguyễn Th…');
  });
});

describe('fitting', () => {
  const cols = (...spec: [string, boolean, number][]) =>
    spec.map(([header, fixed, priority]) => ({ header, fixed, priority }));
  it('cuts low priority and wide columns first and never an id', () => {
    const c = cols(['ID', true, 0], ['NOTE', false, 0], ['TAGS', false, -1]);
    const rows = [['a'.repeat(30), 'n'.repeat(40), 't'.repeat(40)]];
    const w = fitWidths(c, rows, 60);
    expect(w[0]).toBe(30);
    expect(w.reduce((a, b) => a + b) + 4).toBe(60);
    expect(w[2]).toBe(6);
    // Too narrow even for the minimum widths: the least important columns are left out, never the id.
    expect(fitWidths(c, rows, 36)).toEqual([30, 0, 0]);
  });
  it('leaves out a column empty in every row before cutting another, and keeps it when all fits', () => {
    const c = cols(['ID', true, 0], ['LABEL', false, 0], ['TAGS', false, 0], ['CREATED', false, 0]);
    const rows = [
      ['a'.repeat(10), 'l'.repeat(50), '', 'just now'],
      ['b'.repeat(10), 'm'.repeat(30), ' ', '1d ago'],
    ];
    expect(fitWidths(c, rows, 70)).toEqual([10, 48, 0, 8]);
    expect(fitWidths(c, rows, 200)).toEqual([10, 50, 4, 8]);
  });
  it('short times', () => {
    const at = Date.parse('2026-11-21T12:00:00Z');
    expect(shortTime('2026-11-21T10:00:00Z', at)).toBe('2h ago');
    expect(shortTime('2026-11-21T11:59:30Z', at)).toBe('just now');
    expect(shortTime('2026-11-24T12:00:00Z', at)).toBe('in 3d');
    expect(shortTime('2026-10-01T09:42:00Z', at)).toMatch(/^Oct 0[01] \d\d:\d\d$/);
    expect(shortTime('2024-10-03T09:42:00Z', at)).toMatch(/^Oct 0[234] 2024$/);
  });
});
