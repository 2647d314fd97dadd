// Packets: get, PATCH (deliverability, re-sending, Person updates), remind, embed_url and coe.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleRequest, expectApiError } from '../helpers.js';
import { type TestEngine, eventKinds, outboxOf, useEngine, withPacket } from './support.js';

const ctx = useEngine();
const HOUR = 3_600_000;

const sent = (e: TestEngine, over: Record<string, unknown> = {}) => e.createBundle(bundleRequest(over));
const advance = (e: TestEngine, ms: number) => e.clock.setOffset(e.clock.offset() + ms);
const signingRequestsTo = (e: TestEngine, to: string) => e.outbox({ to, kind: 'signing_request' });

/** A saved Person with one email channel, written directly (the Persons API arrives later). */
/** A cancelled Bundle's first packet and a draft's are refused with 409 (remind, embed_url). */
function refusesCancelledAndDrafts(
  make: (e: TestEngine, over?: Record<string, unknown>) => Promise<{ id: string; packets: { id: string }[] }>,
  act: (e: TestEngine, packet: string) => Promise<unknown>,
) {
  it('a cancelled Bundle → 409', async () => {
    const { e } = ctx;
    const b = await make(e);
    await e.cancelBundle(b.id);
    await expectApiError(act(e, b.packets[0]!.id), 409, { code: 'conflict' });
  });

  it('a draft → 409', async () => {
    const { e } = ctx;
    const b = await make(e, { status: 'dr' });
    await expectApiError(act(e, b.packets[0]!.id), 409);
  });
}

function insertPerson(e: TestEngine, name: string, email: string): string {
  const id = randomUUID();
  e.db
    .prepare('INSERT INTO persons (id, name, metadata, is_user, created) VALUES (?, ?, ?, 0, ?)')
    .run(id, name, '{}', e.clock.now());
  e.db
    .prepare(`INSERT INTO person_channels (id, person_id, kind, email) VALUES (?, ?, 'em', ?)`)
    .run(randomUUID(), id, email);
  return id;
}
const personName = (e: TestEngine, id: string) =>
  (e.db.prepare('SELECT name FROM persons WHERE id = ?').get(id) as { name: string }).name;
const personEmails = (e: TestEngine, id: string) =>
  (
    e.db.prepare(`SELECT email FROM person_channels WHERE person_id = ? AND kind = 'em' ORDER BY rowid`).all(id) as {
      email: string;
    }[]
  ).map((r) => r.email);

describe('get', () => {
  it('returns the packet as in the Bundle', async () => {
    const { e } = ctx;
    const b = await sent(e);
    expect(await e.getPacket(b.packets[1].id)).toEqual(b.packets[1]);
    expect(b.packets[1]).toMatchObject({
      name: 'Bob Example',
      email: 'bob@example.com',
      deliver_via: 'email',
      status: 'se',
      requires_witness: false,
      witness_nominated_by: '',
    });
  });

  it('an unknown packet → 404', async () => {
    await expectApiError(ctx.e.getPacket('missing'), 404, { code: 'not_found' });
  });
});

describe('update', () => {
  it('changes the allowed members (event pu)', async () => {
    const { e } = ctx;
    e.account.setFeatures(['signing_brands'], true);
    const b = await sent(e);
    const change = {
      name: 'Ada King',
      phone: '+15550100',
      auth_sms: true,
      auth_id: true,
      suppress_reminder: true,
      signing_complete_redirect: 'https://example.com/x',
    };
    const p = await e.updatePacket(b.packets[0].id, change);
    expect(p).toMatchObject(change);
    expect(await e.getPacket(p.id)).toEqual(p);
    expect((await eventKinds(e, b.id)).at(-1)).toBe('pu');
  });

  for (const [name, body, field] of [
    ['deliver_via embed', { deliver_via: 'embed' }, 'deliver_via'],
    ['phone delivery without a phone', { deliver_via: 'phone' }, 'phone'],
    ['auth_sms without a phone', { auth_sms: true }, 'phone'],
    ['an unknown field', { nickname: 'Ada' }, 'nickname'],
    ['the key', { key: 'x' }, 'key'],
    ['the order', { order: 3 }, 'order'],
    ['an invalid email', { email: 'ada-at-example' }, 'email'],
    ['a phone over 128 characters', { phone: '1'.repeat(129) }, 'phone'],
    [
      'signing_complete_redirect without the feature',
      { signing_complete_redirect: 'https://example.com/x' },
      'signing_complete_redirect',
    ],
  ] as const) {
    it(`rejects ${name} naming ${field}`, async () => {
      const { e } = ctx;
      const b = await sent(e);
      await expectApiError(e.updatePacket(b.packets[0].id, body), 400, { code: 'invalid', field });
      expect(await e.getPacket(b.packets[0].id)).toEqual(b.packets[0]);
    });
  }

  it('phone delivery with a phone in the request sends an SMS', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const p = await e.updatePacket(b.packets[0].id, { deliver_via: 'phone', phone: '+15550100' });
    expect(p.deliver_via).toBe('phone');
    expect(e.outbox({ to: '+15550100' }).map((m) => [m.channel, m.kind])).toEqual([['sms', 'signing_request']]);
  });

  it('an email change asks the signer again at the new address', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const p = await e.updatePacket(b.packets[0].id, { email: 'ada@new.example' });
    expect(p.email).toBe('ada@new.example');
    expect(signingRequestsTo(e, 'ada@new.example')).toHaveLength(1);
    expect(signingRequestsTo(e, 'ada@example.com')).toHaveLength(1);
    expect(outboxOf(e, b.id)).toHaveLength(3);
  });

  it('the same email, or a change of name only, sends nothing', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.updatePacket(b.packets[0].id, { email: 'ada@example.com', name: 'Ada' });
    expect(outboxOf(e, b.id)).toHaveLength(2);
  });

  it('an email change on a draft or on a signer whose turn has not come sends nothing', async () => {
    const { e } = ctx;
    const d = await sent(e, { status: 'dr' });
    await e.updatePacket(d.packets[0].id, { email: 'ada@new.example' });
    const ordered = await sent(e, { in_order: true });
    await e.updatePacket(ordered.packets[1].id, { email: 'bob@new.example' });
    expect(e.outbox({ to: 'ada@new.example' })).toEqual([]);
    expect(e.outbox({ to: 'bob@new.example' })).toEqual([]);
    expect((await e.getPacket(ordered.packets[1].id)).email).toBe('bob@new.example');
  });

  it('an embedded signer moved to email gets nothing until reminded', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { deliver_via: 'embed' }));
    await e.updatePacket(b.packets[0].id, { deliver_via: 'email' });
    expect(e.outbox({ packet: b.packets[0].id })).toEqual([]);
    await e.remindPacket(b.packets[0].id);
    expect(e.outbox({ packet: b.packets[0].id }).map((m) => [m.kind, m.recipient])).toEqual([
      ['reminder', 'ada@example.com'],
    ]);
  });

  it('a packet of a cancelled Bundle → 400', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.cancelBundle(b.id);
    await expectApiError(e.updatePacket(b.packets[0].id, { name: 'X' }), 400);
  });

  it('a packet of a test Bundle cannot move to an unverified address', async () => {
    const { e } = ctx;
    const b = await e.createBundle(
      bundleRequest({ is_test: true, packets: [{ key: 'o', name: 'Owner', email: 'owner@example.com' }] }),
    );
    await expectApiError(e.updatePacket(b.packets[0].id, { email: 'someone@example.com' }), 400, { field: 'email' });
  });

  it('an unknown packet → 404', async () => {
    await expectApiError(ctx.e.updatePacket('missing', { name: 'X' }), 404);
  });
});

describe('Person-linked signers', () => {
  it('take name and email from the Person', async () => {
    const { e } = ctx;
    const person = insertPerson(e, 'Grace Hopper', 'grace@example.com');
    const b = await e.createBundle(bundleRequest({ packets: [{ key: 'g', person_id: person }] }));
    expect(b.packets[0]).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com', person_id: person });
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['grace@example.com']);
  });

  it('members given in the request win over the Person', async () => {
    const { e } = ctx;
    const person = insertPerson(e, 'Grace Hopper', 'grace@example.com');
    const b = await e.createBundle(
      bundleRequest({
        packets: [{ key: 'g', person_id: person, name: 'Admiral Hopper', email: 'admiral@example.com' }],
      }),
    );
    expect(b.packets[0]).toMatchObject({ name: 'Admiral Hopper', email: 'admiral@example.com' });
  });

  it('a packet PATCH renames the Person and adds a new email channel', async () => {
    const { e } = ctx;
    const person = insertPerson(e, 'Grace Hopper', 'grace@example.com');
    const b = await e.createBundle(bundleRequest({ packets: [{ key: 'g', person_id: person }] }));
    await e.updatePacket(b.packets[0].id, { name: 'Grace B. Hopper', email: 'gbh@example.com' });
    expect(personName(e, person)).toBe('Grace B. Hopper');
    expect(personEmails(e, person)).toEqual(['grace@example.com', 'gbh@example.com']);
    await e.updatePacket(b.packets[0].id, { email: 'GRACE@example.com' });
    expect(personEmails(e, person)).toEqual(['grace@example.com', 'gbh@example.com']);
  });

  it('an unknown person_id → 400', async () => {
    await expectApiError(ctx.e.createBundle(bundleRequest({ packets: [{ key: 'g', person_id: randomUUID() }] })), 400, {
      code: 'invalid',
      field: 'packets[0].person_id',
    });
  });
});

describe('remind', () => {
  it('once per hour', async () => {
    const { e } = ctx;
    const b = await sent(e);
    const id = b.packets[0].id;
    await e.remindPacket(id);
    expect(e.outbox({ packet: id, kind: 'reminder' })).toHaveLength(1);
    await expectApiError(e.remindPacket(id), 400, { code: 'invalid', message: /once per hour/ });
    advance(e, HOUR - 60_000);
    await expectApiError(e.remindPacket(id), 400);
    advance(e, 60_000);
    await e.remindPacket(id);
    expect(e.outbox({ packet: id, kind: 'reminder' })).toHaveLength(2);
    expect((await eventKinds(e, b.id)).filter((k) => k === 'pr')).toHaveLength(2);
  });

  it('the hour is per packet', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.remindPacket(b.packets[0].id);
    await e.remindPacket(b.packets[1].id);
    expect(e.outbox({ kind: 'reminder' }).map((m) => m.recipient)).toEqual(['ada@example.com', 'bob@example.com']);
  });

  it("uses the packet's delivery method and address", async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { deliver_via: 'phone', phone: '+15550100' }));
    await e.remindPacket(b.packets[0].id);
    expect(e.outbox({ kind: 'reminder' }).map((m) => [m.channel, m.recipient])).toEqual([['sms', '+15550100']]);
  });

  refusesCancelledAndDrafts(sent, (e, packet) => e.remindPacket(packet));

  it('a signer who completed → 409', async () => {
    const { e } = ctx;
    const b = await sent(e);
    e.db.prepare(`UPDATE packets SET status = 'co' WHERE id = ?`).run(b.packets[0].id);
    await expectApiError(e.remindPacket(b.packets[0].id), 409);
  });

  it('an embedded packet → 400', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(0, { deliver_via: 'embed' }));
    await expectApiError(e.remindPacket(b.packets[0].id), 400, { code: 'invalid' });
  });

  it('a signer whose turn has not come (in_order) → 409', async () => {
    const { e } = ctx;
    const b = await sent(e, { in_order: true });
    await expectApiError(e.remindPacket(b.packets[1].id), 409, { code: 'conflict' });
    await e.remindPacket(b.packets[0].id);
    expect(e.outbox({ kind: 'reminder' }).map((m) => m.recipient)).toEqual(['ada@example.com']);
  });

  it('an unknown packet → 404', async () => {
    await expectApiError(ctx.e.remindPacket('missing'), 404);
  });
});

describe('embed_url', () => {
  const embedded = (e: TestEngine, over: Record<string, unknown> = {}) =>
    e.createBundle(withPacket(0, { deliver_via: 'embed' }, bundleRequest(over)));

  it('returns a single-use URL that expires in the future (event eu)', async () => {
    const { e } = ctx;
    const b = await embedded(e);
    const first = await e.createEmbedUrl(b.packets[0].id);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/sign\/.+/);
    expect(Date.parse(first.expires)).toBeGreaterThan(e.clock.nowMs());
    const second = await e.createEmbedUrl(b.packets[0].id);
    expect(second.url).not.toBe(first.url);
    expect((await eventKinds(e, b.id)).filter((k) => k === 'eu')).toHaveLength(2);
  });

  it('an email packet → 400', async () => {
    const { e } = ctx;
    const b = await embedded(e);
    await expectApiError(e.createEmbedUrl(b.packets[1].id), 400, { code: 'invalid' });
  });

  refusesCancelledAndDrafts(embedded, (e, packet) => e.createEmbedUrl(packet));

  it('a signer whose turn has not come → 409', async () => {
    const { e } = ctx;
    const b = await e.createBundle(withPacket(1, { deliver_via: 'embed' }, bundleRequest({ in_order: true })));
    await expectApiError(e.createEmbedUrl(b.packets[1].id), 409);
  });

  it('an unknown packet → 404', async () => {
    await expectApiError(ctx.e.createEmbedUrl('missing'), 404);
  });
});

describe('coe', () => {
  it('409 before completion', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.getPacketCoe(b.packets[0].id), 409, { code: 'conflict' });
    await e.cancelBundle(b.id);
    await expectApiError(e.getPacketCoe(b.packets[0].id), 409);
  });

  it('an unknown packet → 404', async () => {
    await expectApiError(ctx.e.getPacketCoe('missing'), 404);
  });
});
