// The read cache behind GET /bundles/{slug}/ and key checks: never stale after a change, whether
// this engine or another process made it.
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
import { inTransaction, type EngineContext } from '../../src/local/store/context.js';
import { countOnce } from '../../src/local/store/readCache.js';
import { bundleRequest, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
let other: LocalEngine | undefined;
afterEach(async () => {
  await other?.close();
  other = undefined;
  await engine?.dispose();
});

describe('read cache', () => {
  it('serves frozen Bundles that follow changes made by this engine and by another connection', async () => {
    engine = newEngine();
    const { id } = await engine.createBundle(bundleRequest({ status: 'dr' }));
    const first = await engine.getBundle(id);
    expect(Object.isFrozen(first) && Object.isFrozen(first.packets[0])).toBe(true);
    expect(() => {
      (first as { label: string }).label = 'changed in place';
    }).toThrow(TypeError);
    expect(await engine.getBundle(id)).toBe(first);

    await engine.updateBundle(id, { cc_emails: ['audit@example.com'] });
    expect((await engine.getBundle(id)).cc_emails).toEqual(['audit@example.com']);

    // Another process (here: another connection to the same data directory) sends the draft.
    other = new LocalEngine({ dataDir: engine.dataDir });
    await other.sendBundle(id);
    expect((await engine.getBundle(id)).status).toBe('se');
  });

  it('keeps nothing read inside a write transaction, which may yet roll back', async () => {
    engine = newEngine();
    const { id } = await engine.createBundle(bundleRequest({ label: 'Before' }));
    const db = engine.db;
    const labelled = (label: string) => countOnce(db, 'SELECT count(*) FROM bundles WHERE label = ?', [label]);
    expect(labelled('Rolled back')).toBe(0);
    let inside: Promise<{ label: string }> | undefined;
    expect(() =>
      inTransaction({ db } as EngineContext, () => {
        db.prepare(`UPDATE bundles SET label = 'Rolled back' WHERE id = ?`).run(id);
        expect(labelled('Rolled back')).toBe(1);
        // Read (synchronously, in the transaction) through the Bundle cache too.
        inside = engine.getBundle(id);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect((await inside!).label).toBe('Rolled back');
    expect(labelled('Rolled back')).toBe(0);
    expect((await engine.getBundle(id)).label).toBe('Before');
  });

  it('stops accepting a key revoked by this process at once, and by another process within a second', async () => {
    let wall = Date.now();
    engine = newEngine({ wallMs: () => wall });
    const a = engine.keys.create('a');
    const b = engine.keys.create('b');
    expect(engine.keys.authenticate(a.key)).toBe(a.record.id);
    expect(engine.keys.authenticate(b.key)).toBe(b.record.id);
    engine.keys.revoke(a.record.id);
    expect(engine.keys.authenticate(a.key)).toBeUndefined();

    other = new LocalEngine({ dataDir: engine.dataDir });
    other.keys.revoke(b.record.id);
    wall += 1_100;
    expect(engine.keys.authenticate(b.key)).toBeUndefined();
    expect(engine.keys.authenticate('esk_unknown')).toBeUndefined();
  });
});
