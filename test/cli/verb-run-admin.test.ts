// The verbs of the embedded engine's administration and of the commands that stand alone run
// without a command line: `verb.run(f, opts, ...args)` on a Factory holding a real engine on a temp
// directory; what the verb changed is read back from the engine.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Factory } from '../../src/cli/factory.js';
import { captureIO } from '../../src/cli/io.js';
import * as clock from '../../src/cli/commands/local/clock.js';
import * as users from '../../src/cli/commands/local/users.js';
import * as send from '../../src/cli/commands/batch/send.run.js';
import { api } from '../../src/cli/commands/api/api.js';
import { completion } from '../../src/cli/commands/completion/completion.js';
import * as schema from '../../src/cli/commands/schema/schema.run.js';
import { verify } from '../../src/cli/commands/verify/verify.js';
import { add as addProfile } from '../../src/cli/commands/profile/add.js';
import { remove as removeProfile } from '../../src/cli/commands/profile/remove.js';
import { openProfiles } from '../../src/cli/profiles.js';
import { backends } from '../../src/wiring/backends.js';
import { fixture, newEngine, useTempDir } from '../helpers.js';

const engine = newEngine();
afterAll(() => engine.dispose());

const config = useTempDir('esign-verb-run-');
const factory = (options = {}, stdin?: string) => {
  const io = captureIO({ env: { NO_COLOR: '1', ESIGN_CONFIG_DIR: config.dir }, stdin });
  return { f: Factory.withEngine(engine, io, options, undefined, backends), io };
};

describe('local verbs run in-process on an injected engine', () => {
  it('local users add and unverify change the account the engine holds', async () => {
    const { f, io } = factory({ json: true });
    await users.add.run(f, { name: 'Ops', admin: true }, 'ops@example.com');
    expect(JSON.parse(io.stdout())).toMatchObject({ email: 'ops@example.com', verified: true, is_admin: true });
    await users.unverify.run(factory().f, {}, 'ops@example.com');
    const stored = engine.account.users().find((u) => u.email === 'ops@example.com');
    expect(stored).toMatchObject({ name: 'Ops', verified: false });
  });

  it('local clock advance moves the engine clock by the duration given', async () => {
    const { f } = factory();
    await clock.advance.run(f, {}, '1d12h');
    expect(engine.clock.offset()).toBe(36 * 3_600_000);
    await clock.reset.run(f, {});
    expect(engine.clock.offset()).toBe(0);
  });

  it('local clock advance of a bad duration is a usage error and leaves the clock', async () => {
    await expect(clock.advance.run(factory().f, {}, 'soon')).rejects.toMatchObject({ exitCode: 2 });
    expect(engine.clock.offset()).toBe(0);
  });
});

describe('profile verbs run in-process', () => {
  it('profile add keeps the key it read from stdin, trimmed; profile remove --yes drops it', async () => {
    const { f } = factory({}, 'k_secret \n');
    const url = 'http://127.0.0.1:9/api/v2';
    await addProfile.run(f, { baseUrl: `${url}/`, apiKeyStdin: true, verify: false, use: true }, 'stage');
    const store = await openProfiles(f.env);
    expect(store.get('stage')).toEqual({ baseUrl: url, apiKey: 'k_secret' });
    expect(store.current()).toBe('stage');
    await removeProfile.run(factory().f, { yes: true }, 'stage');
    expect((await openProfiles(f.env)).has('stage')).toBe(false);
  });

  it('profile add of a name that exists is a usage error without --force', async () => {
    await addProfile.run(factory().f, { verify: true }, 'here');
    await expect(addProfile.run(factory().f, { verify: true }, 'here')).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe('verbs that stand alone run in-process on an injected engine', () => {
  it('api POST creates what the body says in the engine, and prints its answer', async () => {
    const { f, io } = factory();
    const fields = ['name=Ada Lovelace', 'channels[][email]=ada@api.example'];
    await api.run(f, { rawField: fields }, 'post', '/persons/');
    const made = JSON.parse(io.stdout());
    expect((await engine.getPerson(made.id)).name).toBe('Ada Lovelace');
  });

  it('verify of a hash no completed Bundle has is a mismatch (exit 9), one row per input', async () => {
    const { f, io } = factory();
    await expect(verify.run(f, { hash: ['a'.repeat(64)] }, [])).rejects.toMatchObject({ exitCode: 9 });
    expect(io.stdout().split('\t').slice(0, 2)).toEqual(['hash', 'no_match']);
  });

  it('schema names a request type by its typed argument; completion prints the script of its shell', async () => {
    const { f, io } = factory();
    await schema.run(f, {}, 'BundleRequest');
    expect(JSON.parse(io.stdout()).type).toBe('object');
    const c = factory();
    await completion.run(c.f, {}, 'fish');
    expect(c.io.stdout()).toContain('complete -c esign');
  });
});

describe('batch verbs run in-process on an injected engine', () => {
  it('batch send creates one Bundle per row in the engine, under the row custom_key', async () => {
    const dir = config.dir;
    copyFileSync(fixture('contract.pdf'), join(dir, 'contract.pdf'));
    const spec = join(dir, 'spec.json');
    const sig = { kind: 'sig', key: 's1', editors: ['signer'], page: 1, x: 10, y: 10, w: 100, h: 30 };
    const documents = [{ key: 'nda', file_path: 'contract.pdf', fields: [sig] }];
    const packets = [{ key: 'signer', name: '{{name}}', email: '{{email}}' }];
    writeFileSync(spec, JSON.stringify({ label: 'NDA', documents, packets }));
    const csv = join(dir, 'rows.csv');
    writeFileSync(csv, 'name,email,custom_key\nJane,jane@example.com,run-1\n');
    const { f, io } = factory({ json: true, dataDir: join(dir, 'data') });
    await send.run(f, { spec, yes: true }, csv);
    expect(JSON.parse(io.stdout())).toMatchObject({ rows: 1, created: 1, failed: 0 });
    const made = (await engine.listBundles({ per_page: 100 })).items.filter((b) => b.custom_key === 'run-1');
    expect(made.map((b) => b.packets[0]?.name)).toEqual(['Jane']);
  });
});
