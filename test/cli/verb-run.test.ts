// A verb's body runs without a command line: `verb.run(f, opts, ...args)` with a Factory over an
// injected service (here a real engine on a temp dir), its option types those its flags declare.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Factory } from '../../src/cli/factory.js';
import { captureIO } from '../../src/cli/io.js';
import { coe } from '../../src/cli/commands/packet/coe.js';
import { get } from '../../src/cli/commands/packet/get.js';
import { update } from '../../src/cli/commands/packet/update.js';
import { create as createPerson } from '../../src/cli/commands/person/create.js';
import { del as deletePerson } from '../../src/cli/commands/person/delete.js';
import { list as listPersons } from '../../src/cli/commands/person/list.js';
import { update as updatePerson } from '../../src/cli/commands/person/update.js';
import { del as deleteTemplate } from '../../src/cli/commands/template/delete.js';
import { list as listTemplates } from '../../src/cli/commands/template/list.js';
import { set as setMetadata, unset as unsetMetadata } from '../../src/cli/commands/template/metadata.js';
import { get as getEnvelopeTemplate } from '../../src/cli/commands/envelope-template/get.js';
import { list as listEnvelopeTemplates } from '../../src/cli/commands/envelope-template/list.js';
import { create as createWebhook } from '../../src/cli/commands/webhook/create.js';
import { del as deleteWebhook } from '../../src/cli/commands/webhook/delete.js';
import { add as addHeader, remove as removeHeader } from '../../src/cli/commands/webhook/headers.js';
import { list as listWebhooks } from '../../src/cli/commands/webhook/list.js';
import { update as updateWebhook } from '../../src/cli/commands/webhook/update.js';
import { CONTRACT_PDF, bundleRequest, fixture, newEngine } from '../helpers.js';

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

  it('closing a Factory over an injected engine leaves the engine to its owner', async () => {
    const f = Factory.withEngine(engine, captureIO());
    await get.run(f, {}, packet);
    await f.close();
    expect((await engine.getPacket(packet)).id).toBe(packet);
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

describe('person verbs run in-process', () => {
  it('create, update and delete change what the service holds; list finds it', async () => {
    const made = factory({ quiet: true });
    await createPerson.run(made.f, { name: 'Ada', email: ['ada@example.com'], metadata: ['team=sales'] });
    const id = made.io.stdout().trim();
    expect((await engine.getPerson(id)).metadata).toEqual({ team: 'sales' });

    await updatePerson.run(factory().f, { addPhone: ['+15551234567'], metadata: ['tier=gold'] }, id);
    const p = await engine.getPerson(id);
    expect([p.metadata, p.channels.map((c) => c.email ?? c.phone)]).toEqual([
      { team: 'sales', tier: 'gold' },
      ['ada@example.com', '+15551234567'],
    ]);

    const listed = factory({ quiet: true });
    await listPersons.run(listed.f, { search: 'ada' });
    expect(listed.io.stdout().trim()).toBe(id);

    await deletePerson.run(factory().f, { yes: true }, id);
    await expect(engine.getPerson(id)).rejects.toMatchObject({ status: 404 });
  });

  it('delete without --yes off a terminal is a usage error and deletes nothing', async () => {
    const made = factory({ quiet: true });
    await createPerson.run(made.f, { name: 'Bob' });
    const id = made.io.stdout().trim();
    await expect(deletePerson.run(factory().f, {}, id)).rejects.toMatchObject({ exitCode: 2 });
    expect((await engine.getPerson(id)).name).toBe('Bob');
  });
});

describe('template verbs run in-process', () => {
  it('metadata set and unset change what the service holds; list filters by it; delete removes it', async () => {
    const { id } = await engine.importTemplate({ name: 'T', pdf: CONTRACT_PDF, roles: [{ key: 'buyer' }], fields: [] });
    await setMetadata.run(factory().f, {}, id, ['region=emea', 'tier=gold']);
    await unsetMetadata.run(factory().f, {}, id, ['tier']);
    expect((await engine.getTemplate(id)).metadata).toEqual({ region: 'emea' });

    const listed = factory({ quiet: true });
    await listTemplates.run(listed.f, { metadata: ['region=emea'] });
    expect(listed.io.stdout().trim()).toBe(id);

    await deleteTemplate.run(factory().f, { yes: true }, id);
    await expect(engine.getTemplate(id)).rejects.toMatchObject({ status: 404 });
  });

  it('envelope-template list and get show what the service holds', async () => {
    const path = fixture('templates/envelope-template.json');
    const et = await engine.createEnvelopeTemplate(JSON.parse(readFileSync(path, 'utf8')), dirname(path));
    const listed = factory({ quiet: true });
    await listEnvelopeTemplates.run(listed.f, { all: true });
    expect(listed.io.stdout().trim().split('\n')).toContain(et.id);
    const shown = factory();
    await getEnvelopeTemplate.run(shown.f, {}, et.id);
    expect(shown.io.stdout()).toContain('signer 1\tclient (Client) auth: sms');
  });
});

describe('webhook verbs run in-process', () => {
  it('create, update, headers add/remove and delete change what the service holds', async () => {
    const made = factory({ quiet: true });
    const url = 'http://127.0.0.1:9/hooks';
    await createWebhook.run(made.f, { name: 'crm', url, events: 'bundle_sent,bundle_complete' });
    const id = made.io.stdout().trim();
    expect((await engine.getWebhook(id)).event_types).toEqual(['bundle_sent', 'bundle_complete']);

    await updateWebhook.run(factory().f, { disable: true, form: true }, id);
    expect(await engine.getWebhook(id)).toMatchObject({ enabled: false, json: false });
    const disabled = factory({ quiet: true });
    await listWebhooks.run(disabled.f, { disabled: true });
    expect(disabled.io.stdout().trim()).toBe(id);

    const added = factory({ quiet: true });
    await addHeader.run(added.f, { order: '2' }, id, 'X-Tenant', 'acme');
    const header = added.io.stdout().trim();
    expect((await engine.getWebhook(id)).extra_headers).toMatchObject([{ name: 'X-Tenant', value: 'acme', order: 2 }]);
    await removeHeader.run(factory().f, { yes: true }, header);
    expect((await engine.getWebhook(id)).extra_headers).toEqual([]);

    await deleteWebhook.run(factory().f, { yes: true }, id);
    await expect(engine.getWebhook(id)).rejects.toMatchObject({ status: 404 });
  });

  it('list with --enabled and --disabled is a usage error', async () => {
    await expect(listWebhooks.run(factory().f, { enabled: true, disabled: true })).rejects.toMatchObject({
      exitCode: 2,
    });
  });
});
