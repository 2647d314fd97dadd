// The verbs of persons, templates, envelope templates and webhooks run without a command line:
// `verb.run(f, opts, ...args)` with a Factory over an injected service (a real engine on a temp dir).
import { afterAll, describe, expect, it } from 'vitest';
import { Factory } from '../../src/cli/factory.js';
import { captureIO } from '../../src/cli/io.js';
import { create } from '../../src/cli/commands/person/create.js';
import { del } from '../../src/cli/commands/person/delete.js';
import { list } from '../../src/cli/commands/person/list.js';
import { update } from '../../src/cli/commands/person/update.js';
import { newEngine } from '../helpers.js';

const person = { create, del, list, update };
const engine = newEngine();
afterAll(() => engine.dispose());

const factory = (options = {}) => {
  const io = captureIO({ env: { NO_COLOR: '1' } });
  return { f: Factory.withService(engine, io, options), io };
};

describe('person verbs', () => {
  it('create, update and delete change what the service holds; list finds it', async () => {
    const made = factory({ quiet: true });
    await person.create.run(made.f, { name: 'Ada', email: ['ada@example.com'], metadata: ['team=sales'] });
    const id = made.io.stdout().trim();
    expect((await engine.getPerson(id)).metadata).toEqual({ team: 'sales' });

    await person.update.run(factory().f, { addPhone: ['+15551234567'], metadata: ['tier=gold'] }, id);
    const p = await engine.getPerson(id);
    expect([p.metadata, p.channels.map((c) => c.email ?? c.phone)]).toEqual([
      { team: 'sales', tier: 'gold' },
      ['ada@example.com', '+15551234567'],
    ]);

    const listed = factory({ quiet: true });
    await person.list.run(listed.f, { search: 'ada' });
    expect(listed.io.stdout().trim()).toBe(id);

    await person.del.run(factory().f, { yes: true }, id);
    await expect(engine.getPerson(id)).rejects.toMatchObject({ status: 404 });
  });

  it('delete without --yes off a terminal is a usage error and deletes nothing', async () => {
    const made = factory({ quiet: true });
    await person.create.run(made.f, { name: 'Bob' });
    const id = made.io.stdout().trim();
    await expect(person.del.run(factory().f, {}, id)).rejects.toMatchObject({ exitCode: 2 });
    expect((await engine.getPerson(id)).name).toBe('Bob');
  });
});
