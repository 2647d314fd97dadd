// The live guard, the one rule the CLI and MCP both call (app/liveGuard.ts): on a backend that
// reaches real people, only a test Bundle or a live caller passes; elsewhere everything passes.
import { describe, expect, it } from 'vitest';
import { requireLive } from '../../src/app/liveGuard.js';
import { RemoteService } from '../../src/remote/remote.js';
import { newEngine } from '../helpers.js';

const refused = () => new Error('refused');

describe('requireLive', () => {
  it('refuses a non-test Bundle on a backend that sends for real unless live', async () => {
    const remote = new RemoteService({ baseUrl: 'http://127.0.0.1:9/api/v2', apiKey: 'k' });
    await expect(requireLive(remote, false, false, refused)).rejects.toThrow('refused');
    await expect(requireLive(remote, false, async () => false, refused)).rejects.toThrow('refused');
    await expect(requireLive(remote, false, true, refused)).resolves.toBeUndefined();
    await expect(requireLive(remote, false, async () => true, refused)).resolves.toBeUndefined();
    await expect(requireLive(remote, true, false, refused)).resolves.toBeUndefined();
  });

  it('asks whether it is a test only when that decides, and passes everything on the engine', async () => {
    const engine = newEngine();
    try {
      let asked = 0;
      const isTest = async () => {
        asked++;
        return false;
      };
      await requireLive(engine, false, isTest, refused);
      const remote = new RemoteService({ baseUrl: 'http://127.0.0.1:9/api/v2', apiKey: 'k' });
      await requireLive(remote, true, isTest, refused);
      expect(asked).toBe(0);
    } finally {
      await engine.dispose();
    }
  });
});
