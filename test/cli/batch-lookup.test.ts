// batch send's lookup of each row's custom_key on the local engine: exact keys found in one indexed read
// per chunk of rows (findBundlesByCustomKeys), never a search per row; rows already there stay `exists`.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Source } from '../../src/app/batch/mapping.js';
import { RowChecker } from '../../src/app/batch/rows.js';
import { LocalEngine } from '../../src/local/engine.js';
import { UNSTATED_TEXT_MAX } from '../../src/domain/schemas.js';
import { bundleRequest, fixture, newEngine, tempDir } from '../helpers.js';
import { esignIn } from './inProcess.js';

let data: ReturnType<typeof tempDir>;
beforeAll(() => {
  data = tempDir('esign-batch-lookup-');
  copyFileSync(fixture('contract.pdf'), join(data.dir, 'contract.pdf'));
});
afterAll(() => data.cleanup());

describe('LocalEngine.findBundlesByCustomKeys', () => {
  it('answers exact keys only (no substring), by key, and leaves out keys no Bundle has', async () => {
    const engine = newEngine();
    try {
      const e1 = await engine.createBundle(bundleRequest({ custom_key: 'E1' }));
      const e10 = await engine.createBundle(bundleRequest({ custom_key: 'E10' }));
      const found = await engine.findBundlesByCustomKeys(['E1', 'E10', 'E100', 'e1']);
      expect([...found.keys()].sort()).toEqual(['E1', 'E10']);
      expect(found.get('E1')).toMatchObject({ id: e1.id, custom_key: 'E1', status: e1.status });
      expect(found.get('E10')?.id).toBe(e10.id);
      expect((await engine.findBundlesByCustomKeys([])).size).toBe(0);
    } finally {
      await engine.dispose();
    }
  });
});

describe('RowChecker schemaPassed', () => {
  it('does not parse again a row the counting pass found valid, and checks every other row whole', async () => {
    const source: Source = {
      kind: 'spec',
      spec: {
        label: '{{label}}',
        documents: [{ key: 'o', file_path: 'contract.pdf' }],
        packets: [{ key: 'p', name: 'P', email: 'p@example.com' }],
      },
      baseDir: data.dir,
    };
    // A label past the schema's bound (UNSTATED_TEXT_MAX): only the schema check refuses it.
    const row = (n: number) => ({ row: n, values: { label: 'x'.repeat(UNSTATED_TEXT_MAX + 1) } });
    const checker = new RowChecker(source, { batchId: 'b', readFiles: false, schemaPassed: (n) => n === 1 });
    expect((await checker.check(row(1))).request?.body.label).toHaveLength(UNSTATED_TEXT_MAX + 1);
    const full = await checker.check(row(2));
    expect(full.request).toBeUndefined();
    expect(full.problems).toEqual([
      expect.objectContaining({ column: 'label', message: expect.stringMatching(/no more than/) }),
    ]);
  });
});

describe('batch send on the local engine', () => {
  it('looks keys up once per 100 rows, not by search per row, and still reports existing ones as exists', async () => {
    const env = { ESIGN_DATA_DIR: join(data.dir, 'engine') };
    const spec = join(data.dir, 'spec.json');
    writeFileSync(
      spec,
      JSON.stringify({
        label: 'Offer {{n}}',
        documents: [{ key: 'o', file_path: 'contract.pdf' }],
        packets: [{ key: 'p', name: 'Person {{n}}', email: 'p{{n}}@example.com' }],
      }),
    );
    const csv = (from: number, to: number) =>
      `n,custom_key\n${Array.from({ length: to - from + 1 }, (_, i) => `${from + i},K${from + i}`).join('\n')}\n`;
    writeFileSync(join(data.dir, 'first.csv'), csv(1, 3));
    const send = (file: string) =>
      esignIn(['batch', 'send', join(data.dir, file), '--spec', spec, '--yes', '--json'], { env });
    const first = await send('first.csv');
    expect(first.exitCode, first.stderr).toBe(0);

    const many = vi.spyOn(LocalEngine.prototype, 'findBundlesByCustomKeys');
    const search = vi.spyOn(LocalEngine.prototype, 'listBundles');
    try {
      writeFileSync(join(data.dir, 'second.csv'), csv(1, 250));
      const r = await send('second.csv');
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ rows: 250, created: 247, exists: 3, failed: 0 });
      expect(many.mock.calls.map((c) => c[0].length)).toEqual([100, 100, 50]);
      expect(search).not.toHaveBeenCalled();
    } finally {
      many.mockRestore();
      search.mockRestore();
    }
  });
});
