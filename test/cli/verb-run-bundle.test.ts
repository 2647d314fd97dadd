// The bundle verbs' bodies run without a command line: `verb.run(f, opts, ...args)` on a Factory
// over an injected service (a real engine on a temp dir), options typed as the flags declare them.
import { afterAll, describe, expect, it } from 'vitest';
import { cancel } from '../../src/cli/commands/bundle/cancel.js';
import * as create from '../../src/cli/commands/bundle/create.run.js';
import { remove } from '../../src/cli/commands/bundle/tags.js';
import * as update from '../../src/cli/commands/bundle/update.run.js';
import { validate } from '../../src/cli/commands/bundle/validate.js';
import { EXIT } from '../../src/cli/exitCodes.js';
import { Factory } from '../../src/cli/factory.js';
import { captureIO } from '../../src/cli/io.js';
import { bundleRequest, newEngine, tempDir } from '../helpers.js';

const engine = newEngine();
const config = tempDir();
afterAll(async () => {
  await engine.dispose();
  config.cleanup();
});

const factory = (options = {}) => {
  const io = captureIO({ env: { NO_COLOR: '1', ESIGN_CONFIG_DIR: config.dir } });
  return { f: Factory.withService(engine, io, options), io };
};
const draft = async (over = {}) => (await engine.createBundle(bundleRequest({ status: 'dr', ...over }))).id;

describe('bundle verbs run in-process on an injected service', () => {
  it('create makes the Bundle its flags describe, tags added after', async () => {
    const { f, io } = factory({ json: true });
    await create.run(f, {
      file: ['fixtures/contract.pdf'],
      signer: ['Ada Lovelace <ada@example.com>', 'Bob <+15551234567>'],
      label: 'In-process',
      tag: ['legal'],
      draft: true,
      sendReminders: true,
      reminderInterval: '3',
    });
    const stored = await engine.getBundle(JSON.parse(io.stdout()).id);
    expect([stored.label, stored.status, stored.tags, stored.reminder_interval]).toEqual([
      'In-process',
      'dr',
      ['legal'],
      3,
    ]);
    expect(stored.packets.map((p) => [p.name, p.deliver_via])).toEqual([
      ['Ada Lovelace', 'email'],
      ['Bob', 'phone'],
    ]);
  });

  it('tags remove takes ID,ID and changes every Bundle named, one summary row each', async () => {
    const ids = [await draft(), await draft()];
    await engine.addBundleTags(ids[0], ['a', 'b']);
    await engine.addBundleTags(ids[1], ['b']);
    const { f, io } = factory();
    await remove.run(f, {}, ids.join(','), ['b']);
    expect(io.stdout()).toBe(`${ids[0]}\tok\ta\n${ids[1]}\tok\t\n`);
    expect((await Promise.all(ids.map((id) => engine.getBundle(id)))).map((b) => b.tags)).toEqual([['a'], []]);
  });

  it('update sends the settings its typed options name; with none it is a usage error', async () => {
    const id = await draft();
    const { f } = factory({ quiet: true });
    await update.run(f, { ccSender: true, reminderOffset: '2', owner: 'none' }, id);
    const b = await engine.getBundle(id);
    expect([b.cc_sender, b.reminder_offset]).toEqual([true, 2]);
    await expect(update.run(factory().f, {}, id)).rejects.toMatchObject({ exitCode: 2 });
  });

  it('cancel --yes cancels without asking; validate of the cancelled Bundle exits CANNOT_SEND', async () => {
    const id = await draft();
    await cancel.run(factory({ quiet: true }).f, { yes: true }, [id]);
    expect((await engine.getBundle(id)).status).toBe('ca');
    const { f, io } = factory();
    await expect(validate.run(f, {}, id)).rejects.toMatchObject({ exitCode: EXIT.CANNOT_SEND });
    expect(io.stdout()).toMatch(/^can_send\tfalse\n/);
  });
});
