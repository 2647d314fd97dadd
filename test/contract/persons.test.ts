// Persons on every backend: the same CRUD scenarios in-process and over HTTP to esign serve.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleRequest, expectApiError, adaPersonMade } from '../helpers.js';
import { BACKENDS, useBackend } from './backends.js';

describe.each(BACKENDS)('contract persons: $name', ({ make }) => {
  const b = useBackend(make);

  const ada = {
    name: 'Ada Lovelace',
    metadata: { dept: 'maths' },
    channels: [{ email: 'ada@example.com' }, { kind: 'mp', phone: '+1 555 010 0100' }],
  };

  it('creates, retrieves, replaces, patches and deletes', async () => {
    const s = b.service;
    const p = await s.createPerson(ada);
    expect(p).toMatchObject(adaPersonMade('+1 555 010 0100'));
    expect(await s.getPerson(p.id)).toEqual(p);

    const put = await s.replacePerson(p.id, {
      name: 'Ada King',
      channels: [{ id: p.channels[0].id, email: 'ada@king.example' }],
    });
    expect(put).toEqual({
      id: p.id,
      name: 'Ada King',
      metadata: {},
      is_user: false,
      channels: [{ id: p.channels[0].id, kind: 'em', email: 'ada@king.example' }],
    });

    const patched = await s.updatePerson(p.id, {
      metadata: { a: 1 },
      channels: [{ email: 'ADA@king.example' }, { phone: '+1 555 0200' }],
    });
    expect(patched.metadata).toEqual({ a: 1 });
    expect(patched.channels.map((c) => c.email ?? c.phone)).toEqual(['ada@king.example', '+1 555 0200']);

    await s.deletePerson(p.id);
    await expectApiError(s.getPerson(p.id), 404, { code: 'not_found' });
  });

  it('answers 404 for an unknown Person on every operation', async () => {
    const s = b.service;
    const id = randomUUID();
    await expectApiError(s.getPerson(id), 404, { code: 'not_found' });
    await expectApiError(s.replacePerson(id, { name: 'A' }), 404, { code: 'not_found' });
    await expectApiError(s.updatePerson(id, { name: 'A' }), 404, { code: 'not_found' });
    await expectApiError(s.deletePerson(id), 404, { code: 'not_found' });
  });

  it('rejects bad input with 400 naming every field', async () => {
    const e = await expectApiError(
      b.service.createPerson({
        name: '',
        channels: [
          { email: 'a@example.com' },
          { email: 'b@example.com', phone: '+15550100' },
          { kind: 'em', phone: '+15550100' },
        ],
      }),
      400,
      { code: 'invalid' },
    );
    expect(e.errors.map((f) => f.field).sort()).toEqual(['channels[1]', 'channels[2].kind', 'name']);
    const p = await b.service.createPerson(ada);
    await expectApiError(
      b.service.updatePerson(p.id, { channels: [{ id: randomUUID(), email: 'x@example.com' }] }),
      400,
      { field: 'channels[0].id' },
    );
  });

  it('lists newest first with ANDed filters and pages', async () => {
    const s = b.service;
    await s.createPerson(ada);
    await s.createPerson({
      name: 'Bob Byron',
      channels: [{ email: 'bob@example.com' }, { phone: '+1 (555) 020-0200' }],
    });
    await s.createPerson({ name: 'Carol Ada', channels: [{ email: 'carol@example.com' }] });
    const names = async (q: Record<string, unknown>) => (await s.listPersons(q)).items.map((p) => p.name);
    expect(await names({})).toEqual(['Carol Ada', 'Bob Byron', 'Ada Lovelace']);
    expect(await names({ search: 'ada' })).toEqual(['Carol Ada', 'Ada Lovelace']);
    expect(await names({ email: 'BOB@example.com' })).toEqual(['Bob Byron']);
    expect(await names({ phone: '+1.555.020.0200' })).toEqual(['Bob Byron']);
    expect(await names({ search: 'ada', email: 'bob@example.com' })).toEqual([]);
    const page = await s.listPersons({ page: 2, per_page: 2 });
    expect([page.page, page.total_pages, page.per_page, page.total, page.items.map((p) => p.name)]).toEqual([
      2,
      2,
      2,
      3,
      ['Ada Lovelace'],
    ]);
    await expectApiError(s.listPersons({ page: 3, per_page: 2 }), 404, { code: 'not_found' });
  });

  it("a Bundle signer given by person_id gets the Person's name and email, and follows a PATCH of that channel", async () => {
    const s = b.service;
    const p = await s.createPerson(ada);
    const bundle = await s.createBundle(bundleRequest({ packets: [{ key: 'p', person_id: p.id }] }));
    expect(bundle.packets[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', person_id: p.id });
    await s.updatePerson(p.id, { channels: [{ id: p.channels[0].id, email: 'ada@new.example' }] });
    expect((await s.getPacket(bundle.packets[0].id)).email).toBe('ada@new.example');
    expect((await s.listBundleEvents(bundle.id)).map((x) => x.kind)).toContain('pu');
    await expectApiError(s.createBundle(bundleRequest({ packets: [{ key: 'p', person_id: randomUUID() }] })), 400, {
      field: 'packets[0].person_id',
    });
  });
});
