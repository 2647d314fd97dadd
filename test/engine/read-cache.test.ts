// The read cache behind GET /bundles/{slug}/ and key checks: never stale after a change, whether
// this engine or another process made it.
import { afterEach, describe, expect, it } from 'vitest';
import { LocalEngine } from '../../src/local/engine.js';
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
