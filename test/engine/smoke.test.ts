import { afterEach, describe, expect, it } from 'vitest';
import { bundleRequest, expectApiError, newEngine } from '../helpers.js';

let engine: ReturnType<typeof newEngine>;
afterEach(async () => engine?.dispose());

describe('engine smoke', () => {
  it('creates and launches a Bundle from a base64 PDF', async () => {
    engine = newEngine();
    const b = await engine.createBundle(bundleRequest());
    expect(b.status).toBe('se');
    expect(b.packets.map((p) => p.status)).toEqual(['se', 'se']);
    const events = await engine.listBundleEvents(b.id);
    expect(events.map((e) => e.kind)).toEqual(['bc', 'bl', 'ns', 'ns']);
  });

  it('rejects a missing packets list naming the field', async () => {
    engine = newEngine();
    await expectApiError(engine.createBundle(bundleRequest({ packets: [] })), 400, {
      code: 'invalid',
      field: 'packets',
    });
  });
});
