// A verb's body runs without a command line: `verb.run(f, opts, ...args)` with a Factory over an
// injected service (here a real engine on a temp dir), its option types those its flags declare.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Factory } from '../../src/cli/factory.js';
import { captureIO } from '../../src/cli/io.js';
import { coe } from '../../src/cli/commands/packet/coe.js';
import { get } from '../../src/cli/commands/packet/get.js';
import { update } from '../../src/cli/commands/packet/update.js';
import { bundleRequest, newEngine } from '../helpers.js';

const engine = newEngine();
let packet = '';

beforeAll(async () => {
  const b = await engine.createBundle(bundleRequest());
  packet = b.packets[0]!.id;
});
afterAll(() => engine.dispose());

const factory = (options = {}) => {
  const io = captureIO({ env: { NO_COLOR: '1' } });
  return { f: Factory.withService(engine, io, options), io };
};

describe('verbs run in-process on an injected service', () => {
  it('packet get shows the packet the service holds', async () => {
    const { f, io } = factory({ json: true });
    await get.run(f, {}, packet);
    expect(JSON.parse(io.stdout()).id).toBe(packet);
  });

  it('packet update sends the fields its typed options name, toggles included', async () => {
    const { f, io } = factory({ json: true });
    await update.run(f, { email: 'ada@example.org', authSms: false, suppressReminder: true }, packet);
    const p = JSON.parse(io.stdout());
    expect([p.email, p.auth_sms, p.suppress_reminder]).toEqual(['ada@example.org', false, true]);
    const stored = await engine.getPacket(packet);
    expect([stored.email, stored.suppress_reminder]).toEqual(['ada@example.org', true]);
  });

  it('packet update with nothing to change is a usage error and changes nothing', async () => {
    const { f } = factory();
    await expect(update.run(f, {}, packet)).rejects.toMatchObject({ exitCode: 2 });
  });

  it('packet coe shows the certificate of a signed packet, with its hash', async () => {
    const b = await engine.createBundle(
      bundleRequest({ packets: [{ key: 'cy', name: 'Cy', email: 'cy@example.com' }] }),
    );
    const cy = b.packets[0]!.id;
    await engine.signPacket(cy, {});
    await engine.settle();
    const { f, io } = factory();
    await coe.run(f, {}, cy);
    const shown = Object.fromEntries(
      io
        .stdout()
        .trim()
        .split('\n')
        .map((l) => l.split('\t')),
    );
    expect(shown.sha256).toBe((await engine.getPacketCoe(cy)).sha256);
  });
});
