// Persons on the local engine: validation, list filters, PUT and PATCH channel rules, live Bundles
// following a changed address, delete, is_user, and person_id resolving a signer.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Person } from '../../src/service/types.js';
import { bundleRequest, expectApiError, adaPersonMade } from '../helpers.js';
import { type TestEngine, eventKinds, useEngine } from './support.js';

const ctx = useEngine();

const ada = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Lovelace',
  metadata: { dept: 'maths' },
  channels: [{ email: 'ada@example.com' }, { phone: '+1 (555) 010-0100' }],
  ...over,
});

const addresses = (p: Person) => p.channels.map((c) => `${c.kind}:${c.email ?? c.phone}`);
const names = async (e: TestEngine, q: Record<string, unknown>) => (await e.listPersons(q)).items.map((p) => p.name);

/** A sent Bundle whose only signer is the Person, reached by `deliver_via`. */
const bundleFor = (e: TestEngine, personId: string, over: Record<string, unknown> = {}) =>
  e.createBundle(bundleRequest({ packets: [{ key: 'p', person_id: personId }], ...over }));

describe('create and get', () => {
  it('returns the Person with channel ids and kinds inferred', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    expect(p).toMatchObject(adaPersonMade('+1 (555) 010-0100'));
    expect(p.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(p.channels.map((c) => c.id)).size).toBe(2);
    expect(await e.getPerson(p.id)).toEqual(p);
  });

  it('collapses equal channels of one request (case-insensitive email, normalised phone)', async () => {
    const p = await ctx.e.createPerson(
      ada({
        channels: [
          { email: 'ada@example.com' },
          { email: 'ADA@Example.com' },
          { phone: '+1 555-0100' },
          { phone: '+1 555 0100' },
        ],
      }),
    );
    expect(addresses(p)).toEqual(['em:ada@example.com', 'mp:+1 555-0100']);
  });

  it('an unknown Person → 404', async () => {
    await expectApiError(ctx.e.getPerson(randomUUID()), 404, { code: 'not_found' });
  });

  for (const [what, body, field] of [
    ['no name', { channels: [] }, 'name'],
    ['a blank name', { name: '  ' }, 'name'],
    ['a name over the protective bound (10000)', { name: 'a'.repeat(10_001) }, 'name'],
    ['metadata that is not an object', { name: 'A', metadata: 'x' }, 'metadata'],
    [
      'a channel with both email and phone',
      { name: 'A', channels: [{ email: 'a@example.com' }, { email: 'b@example.com', phone: '+15550100' }] },
      'channels[1]',
    ],
    ['a channel with neither', { name: 'A', channels: [{ kind: 'em' }] }, 'channels[0]'],
    [
      'a kind contradicting the member',
      { name: 'A', channels: [{ kind: 'mp', email: 'a@example.com' }] },
      'channels[0].kind',
    ],
    ['an unknown kind', { name: 'A', channels: [{ kind: 'fax', phone: '+15550100' }] }, 'channels[0].kind'],
    ['an invalid email', { name: 'A', channels: [{ email: 'ada-at-example' }] }, 'channels[0].email'],
    ['a phone without digits', { name: 'A', channels: [{ phone: 'call me' }] }, 'channels[0].phone'],
    [
      'a phone too short for a number of its country',
      { name: 'A', channels: [{ phone: '555 0100' }] },
      'channels[0].phone',
    ],
    ['a phone of two digits', { name: 'A', channels: [{ phone: '+12' }] }, 'channels[0].phone'],
    ['a phone spelt in letters', { name: 'A', channels: [{ phone: '+1-800-FLOWERS' }] }, 'channels[0].phone'],
    ['a phone over 128 characters', { name: 'A', channels: [{ phone: '1'.repeat(129) }] }, 'channels[0].phone'],
    [
      'a channel id on create',
      { name: 'A', channels: [{ id: randomUUID(), email: 'a@example.com' }] },
      'channels[0].id',
    ],
  ] as const) {
    it(`rejects ${what} with 400 on ${field}`, async () => {
      await expectApiError(ctx.e.createPerson(body), 400, { code: 'invalid', field });
      expect((await ctx.e.listPersons()).total).toBe(0);
    });
  }
});

describe('list', () => {
  async function three(e: TestEngine): Promise<void> {
    await e.createPerson({
      name: 'Ada Lovelace',
      channels: [{ email: 'ada@example.com' }, { phone: '+1 555 010 0100' }],
    });
    await e.createPerson({
      name: 'Bob Byron',
      channels: [{ email: 'bob@work.example' }, { phone: '+1 (555) 020-0200' }],
    });
    await e.createPerson({ name: 'Carol Ada', channels: [{ email: 'carol@example.com' }] });
  }

  it('is newest first and pages', async () => {
    const { e } = ctx;
    await three(e);
    expect(await names(e, {})).toEqual(['Carol Ada', 'Bob Byron', 'Ada Lovelace']);
    const second = await e.listPersons({ page: 2, per_page: 2 });
    expect([second.page, second.total_pages, second.per_page, second.total, second.items.map((p) => p.name)]).toEqual([
      2,
      2,
      2,
      3,
      ['Ada Lovelace'],
    ]);
    await expectApiError(e.listPersons({ page: 3, per_page: 2 }), 404, { code: 'not_found' });
  });

  it('search matches name, email or phone, case-insensitively', async () => {
    const { e } = ctx;
    await three(e);
    expect(await names(e, { search: 'ADA' })).toEqual(['Carol Ada', 'Ada Lovelace']);
    expect(await names(e, { search: 'work.EXAMPLE' })).toEqual(['Bob Byron']);
    expect(await names(e, { search: '020-02' })).toEqual(['Bob Byron']);
    expect(await names(e, { search: '5550100' })).toEqual(['Ada Lovelace']);
    expect(await names(e, { search: '100%' })).toEqual([]);
  });

  it('email is exact and case-insensitive; phone is exact once normalised', async () => {
    const { e } = ctx;
    await three(e);
    expect(await names(e, { email: 'BOB@work.example' })).toEqual(['Bob Byron']);
    expect(await names(e, { email: 'bob@work' })).toEqual([]);
    expect(await names(e, { phone: '+1.555.020.0200' })).toEqual(['Bob Byron']);
    expect(await names(e, { phone: '+15550100100' })).toEqual(['Ada Lovelace']);
    expect(await names(e, { phone: '555' })).toEqual([]);
  });

  it('phones as people type them: kept as written, matched by number (national or international)', async () => {
    const { e } = ctx;
    const typed = ['505 555 5555', '(505) 555-5555', '505.555.5555', '+1 505-555-5555', '+44 20 7946 0958'];
    const p = await e.createPerson({ name: 'Dee Typed', channels: typed.map((phone) => ({ phone })) });
    // One number written four ways is one channel, as first written; the UK number is another.
    expect(addresses(p)).toEqual(['mp:505 555 5555', 'mp:+44 20 7946 0958']);
    expect(await names(e, { phone: '+15055555555' })).toEqual(['Dee Typed']);
    expect(await names(e, { phone: '1 (505) 555 5555' })).toEqual(['Dee Typed']);
    expect(await names(e, { phone: '+442079460958' })).toEqual(['Dee Typed']);
    expect(await names(e, { search: '+1 505 555 5555' })).toEqual(['Dee Typed']);
    expect(await names(e, { phone: '505 555 5556' })).toEqual([]);
  });

  it('ANDs the filters', async () => {
    const { e } = ctx;
    await three(e);
    expect(await names(e, { search: 'ada', email: 'carol@example.com' })).toEqual(['Carol Ada']);
    expect(await names(e, { search: 'ada', phone: '+15550200200' })).toEqual([]);
    expect(await names(e, { email: 'ada@example.com', phone: '+1 555 010 0100' })).toEqual(['Ada Lovelace']);
  });
});

describe('replace (PUT)', () => {
  it('updates named channels, adds new ones and deletes every omitted one', async () => {
    const { e } = ctx;
    const p = await e.createPerson(
      ada({ channels: [{ email: 'ada@example.com' }, { email: 'old@example.com' }, { phone: '+1 555 0100' }] }),
    );
    const [mail, , phone] = p.channels;
    const r = await e.replacePerson(p.id, {
      name: 'Ada King',
      channels: [
        { id: phone.id, phone: '+1 555 0199' },
        { email: 'new@example.com' },
        { id: mail.id, kind: 'em', email: 'ada@king.example' },
      ],
    });
    expect(r).toMatchObject({ name: 'Ada King', metadata: {} });
    expect(r.channels).toEqual([
      { id: mail.id, kind: 'em', email: 'ada@king.example' },
      { id: phone.id, kind: 'mp', phone: '+1 555 0199' },
      { id: expect.any(String), kind: 'em', email: 'new@example.com' },
    ]);
    expect(await e.getPerson(p.id)).toEqual(r);
  });

  it('with no channels deletes them all', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    expect((await e.replacePerson(p.id, { name: 'Ada' })).channels).toEqual([]);
  });

  it('requires the name, and channel ids of this Person', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const other = await e.createPerson({ name: 'Other', channels: [{ email: 'other@example.com' }] });
    await expectApiError(e.replacePerson(p.id, { channels: [] }), 400, { field: 'name' });
    await expectApiError(
      e.replacePerson(p.id, {
        name: 'A',
        channels: [{ email: 'x@example.com' }, { id: other.channels[0].id, email: 'y@example.com' }],
      }),
      400,
      { field: 'channels[1].id' },
    );
    await expectApiError(
      e.replacePerson(p.id, { name: 'A', channels: [{ id: p.channels[0].id, phone: '+1 555 0101' }] }),
      400,
      { field: 'channels[0]', message: /email channel/ },
    );
    expect(await e.getPerson(p.id)).toEqual(p);
    expect(await e.getPerson(other.id)).toEqual(other);
  });

  it('an unknown Person → 404', async () => {
    await expectApiError(ctx.e.replacePerson(randomUUID(), { name: 'A' }), 404, { code: 'not_found' });
  });
});

describe('update (PATCH)', () => {
  it('changes only what is given; metadata is replaced', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    expect(await e.updatePerson(p.id, { metadata: { team: 'x' } })).toEqual({ ...p, metadata: { team: 'x' } });
    expect(await e.updatePerson(p.id, { name: 'Ada King' })).toEqual({
      ...p,
      name: 'Ada King',
      metadata: { team: 'x' },
    });
  });

  it('adds a new email or phone, and leaves an equal one unchanged', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const r = await e.updatePerson(p.id, {
      channels: [
        { email: 'ADA@example.COM' },
        { phone: '+15550100100' },
        { email: 'ada@home.example' },
        { phone: '+1 555 0200' },
      ],
    });
    expect(r.channels.slice(0, 2)).toEqual(p.channels);
    expect(addresses(r)).toEqual([
      'em:ada@example.com',
      'mp:+1 (555) 010-0100',
      'em:ada@home.example',
      'mp:+1 555 0200',
    ]);
  });

  it('updates a channel by id, keeping the others', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const r = await e.updatePerson(p.id, { channels: [{ id: p.channels[1].id, phone: '+1 555 0300' }] });
    expect(r.channels).toEqual([p.channels[0], { id: p.channels[1].id, kind: 'mp', phone: '+1 555 0300' }]);
  });

  it('refuses a channel id of another Person, and changes nothing', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    await expectApiError(
      e.updatePerson(p.id, {
        name: 'Changed',
        channels: [{ email: 'x@example.com' }, { id: randomUUID(), email: 'y@example.com' }],
      }),
      400,
      { field: 'channels[1].id' },
    );
    expect(await e.getPerson(p.id)).toEqual(p);
  });

  it('an unknown Person → 404', async () => {
    await expectApiError(ctx.e.updatePerson(randomUUID(), { name: 'A' }), 404, { code: 'not_found' });
  });
});

describe('PATCH by channel id and the Bundles sending to that address', () => {
  it('moves live Bundles to the new address (event pu, a new signing request), not ended ones', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const live = await bundleFor(e, p.id, { label: 'live' });
    const draft = await bundleFor(e, p.id, { label: 'draft', status: 'dr' });
    const cancelled = await e.cancelBundle((await bundleFor(e, p.id, { label: 'cancelled' })).id);
    const done = await bundleFor(e, p.id, { label: 'done' });
    await e.signPacket(done.packets[0].id, {});
    await e.settle();
    expect((await e.getBundle(done.id)).status).toBe('co');

    await e.updatePerson(p.id, { channels: [{ id: p.channels[0].id, email: 'ada@new.example' }] });

    const emailOf = async (slug: string) => (await e.getBundle(slug)).packets[0].email;
    expect(await emailOf(live.id)).toBe('ada@new.example');
    expect(await emailOf(draft.id)).toBe('ada@new.example');
    expect(await emailOf(cancelled.id)).toBe('ada@example.com');
    expect(await emailOf(done.id)).toBe('ada@example.com');
    expect((await eventKinds(e, live.id)).at(-2)).toBe('pu');
    expect((await eventKinds(e, live.id)).at(-1)).toBe('ns');
    expect((await eventKinds(e, draft.id)).at(-1)).toBe('pu');
    expect(await eventKinds(e, cancelled.id)).not.toContain('pu');
    expect(await eventKinds(e, done.id)).not.toContain('pu');
    expect(e.outbox({ to: 'ada@new.example', kind: 'signing_request' }).map((m) => m.bundle_id)).toEqual([live.id]);
  });

  it('moves a phone the same way, matching the old number once normalised', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const b = await e.createBundle(
      bundleRequest({ packets: [{ key: 'p', person_id: p.id, phone: '+15550100100', deliver_via: 'phone' }] }),
    );
    await e.updatePerson(p.id, { channels: [{ id: p.channels[1].id, phone: '+1 555 010 0999' }] });
    expect((await e.getBundle(b.id)).packets[0]).toMatchObject({ phone: '+1 555 010 0999', email: 'ada@example.com' });
  });

  it('leaves packets at other addresses and packets of other Persons alone', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const q = await e.createPerson({ name: 'Twin', channels: [{ email: 'ada@example.com' }] });
    const mine = await e.createBundle(
      bundleRequest({ packets: [{ key: 'p', person_id: p.id, email: 'ada@elsewhere.example' }] }),
    );
    const theirs = await bundleFor(e, q.id);
    await e.updatePerson(p.id, { channels: [{ id: p.channels[0].id, email: 'ada@new.example' }] });
    expect((await e.getBundle(mine.id)).packets[0].email).toBe('ada@elsewhere.example');
    expect((await e.getBundle(theirs.id)).packets[0].email).toBe('ada@example.com');
  });

  it('refuses an unverified address for a live test Bundle, and changes nothing', async () => {
    const { e } = ctx;
    e.account.addUser({ email: 'ada@example.com', verified: true });
    const p = await e.createPerson(ada());
    const b = await bundleFor(e, p.id, { is_test: true });
    await expectApiError(
      e.updatePerson(p.id, { channels: [{ id: p.channels[0].id, email: 'ada@new.example' }] }),
      400,
      { field: 'channels[0].email', message: /Test Bundles/ },
    );
    expect(await e.getPerson(p.id)).toEqual(p);
    expect((await e.getBundle(b.id)).packets[0].email).toBe('ada@example.com');
  });
});

describe('delete', () => {
  it('removes the Person; packets keep their own name and email', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const b = await bundleFor(e, p.id);
    await e.deletePerson(p.id);
    await expectApiError(e.getPerson(p.id), 404, { code: 'not_found' });
    expect((await e.listPersons()).total).toBe(0);
    expect((await e.getBundle(b.id)).packets[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    await expectApiError(e.deletePerson(p.id), 404, { code: 'not_found' });
  });

  it('a later packet PATCH of a signer whose Person is gone still works', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const b = await bundleFor(e, p.id);
    await e.deletePerson(p.id);
    expect(await e.updatePacket(b.packets[0].id, { email: 'ada@later.example' })).toMatchObject({
      email: 'ada@later.example',
    });
    await expectApiError(e.getPerson(p.id), 404);
  });
});

describe('is_user', () => {
  it('is true while one of the email channels is an account user', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada({ channels: [{ phone: '+1 555 0100' }, { email: 'ada@example.com' }] }));
    expect(p.is_user).toBe(false);
    e.account.addUser({ email: 'Ada@Example.com' });
    expect((await e.getPerson(p.id)).is_user).toBe(true);
    expect((await e.listPersons({ email: 'ada@example.com' })).items[0].is_user).toBe(true);
    expect((await e.replacePerson(p.id, { name: 'Ada', channels: [{ email: 'ada@home.example' }] })).is_user).toBe(
      false,
    );
  });
});

describe('person_id on a packet', () => {
  it('resolves the signer from a Person made through the API; the request wins where it says more', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const b = await e.createBundle(
      bundleRequest({
        packets: [
          { key: 'p', person_id: p.id },
          { key: 'q', person_id: p.id, name: 'A. L.', deliver_via: 'phone' },
        ],
      }),
    );
    expect(b.packets[0]).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+1 (555) 010-0100',
      person_id: p.id,
      deliver_via: 'email',
    });
    expect(b.packets[1]).toMatchObject({ name: 'A. L.', phone: '+1 (555) 010-0100', deliver_via: 'phone' });
  });

  it('a packet PATCH adds its new email to the Person once', async () => {
    const { e } = ctx;
    const p = await e.createPerson(ada());
    const b = await bundleFor(e, p.id);
    await e.updatePacket(b.packets[0].id, { email: 'ada@later.example' });
    await e.updatePacket(b.packets[0].id, { email: 'ADA@later.example' });
    expect(addresses(await e.getPerson(p.id))).toEqual([
      'em:ada@example.com',
      'mp:+1 (555) 010-0100',
      'em:ada@later.example',
    ]);
  });
});
