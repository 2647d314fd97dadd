// validate, send, cancel and tags.
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, bundleRequest, expectApiError } from '../helpers.js';
import { type TestEngine, eventKinds, forceStatus, outboxOf, useEngine } from './support.js';

const ctx = useEngine();

const draft = (e: TestEngine, over: Record<string, unknown> = {}) =>
  e.createBundle(bundleRequest({ status: 'dr', ...over }));
const sent = (e: TestEngine) => e.createBundle(bundleRequest());

describe('validate', () => {
  it('a draft can be sent; n_docs counts its documents', async () => {
    const { e } = ctx;
    const one = await draft(e);
    expect(await e.validateBundle(one.id)).toEqual({ can_send: true, msg: expect.any(String), n_docs: 1 });
    const two = await draft(e, {
      documents: [
        { key: 'a', file_b64: CONTRACT_B64 },
        { key: 'b', file_b64: CONTRACT_B64 },
      ],
    });
    expect(await e.validateBundle(two.id)).toMatchObject({ can_send: true, n_docs: 2 });
  });

  it('a sent or cancelled Bundle cannot be sent, with a reason', async () => {
    const { e } = ctx;
    const b = await sent(e);
    expect(await e.validateBundle(b.id)).toMatchObject({
      can_send: false,
      n_docs: 1,
      msg: expect.stringMatching(/sent/),
    });
    await e.cancelBundle(b.id);
    expect(await e.validateBundle(b.id)).toMatchObject({ can_send: false, msg: expect.stringMatching(/cancelled/) });
  });

  it('changes nothing', async () => {
    const { e } = ctx;
    const b = await draft(e);
    await e.validateBundle(b.id);
    expect((await e.getBundle(b.id)).status).toBe('dr');
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bd']);
  });

  it('an unknown Bundle → 404', async () => {
    await expectApiError(ctx.e.validateBundle('missing'), 404, { code: 'not_found' });
  });
});

describe('send', () => {
  it('launches a draft: se, sent timestamp, signing requests in the outbox', async () => {
    const { e } = ctx;
    const d = await draft(e);
    expect(e.outbox()).toEqual([]);
    const b = await e.sendBundle(d.id);
    expect(b.status).toBe('se');
    expect(b.sent).not.toBeNull();
    expect(b.packets.map((p) => p.status)).toEqual(['se', 'se']);
    expect(outboxOf(e, b.id).map((m) => [m.kind, m.recipient])).toEqual([
      ['signing_request', 'ada@example.com'],
      ['signing_request', 'bob@example.com'],
    ]);
    expect(await eventKinds(e, b.id)).toEqual(['bc', 'bd', 'bl', 'ns', 'ns']);
  });

  it('respects in_order when a draft is sent', async () => {
    const { e } = ctx;
    const b = await e.sendBundle((await draft(e, { in_order: true })).id);
    expect(b.packets.map((p) => p.status)).toEqual(['se', 'ne']);
    expect(outboxOf(e, b.id).map((m) => m.recipient)).toEqual(['ada@example.com']);
  });

  it('a sent Bundle → 400 and nothing is sent again', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.sendBundle(b.id), 400, { code: 'invalid' });
    expect(outboxOf(e, b.id)).toHaveLength(2);
  });

  it('a draft sent twice → 400 the second time', async () => {
    const { e } = ctx;
    const d = await draft(e);
    await e.sendBundle(d.id);
    await expectApiError(e.sendBundle(d.id), 400);
    expect(outboxOf(e, d.id)).toHaveLength(2);
  });

  it('a cancelled draft → 400', async () => {
    const { e } = ctx;
    const d = await draft(e);
    await e.cancelBundle(d.id);
    await expectApiError(e.sendBundle(d.id), 400);
    expect(e.outbox()).toEqual([]);
  });

  it('an unknown Bundle → 404', async () => {
    await expectApiError(ctx.e.sendBundle('missing'), 404);
  });
});

describe('cancel', () => {
  for (const status of ['dr', 'se', 'pe', 'st', 'de']) {
    it(`a Bundle in ${status} becomes ca (event bx)`, async () => {
      const { e } = ctx;
      const b = await sent(e);
      forceStatus(e, b.id, status);
      const before = e.outbox().length;
      const got = await e.cancelBundle(b.id);
      expect(got.status).toBe('ca');
      expect(got.packets.map((p) => p.status)).toEqual(['ca', 'ca']);
      expect((await eventKinds(e, b.id)).at(-1)).toBe('bx');
      expect(e.outbox()).toHaveLength(before);
      expect((await e.getBundle(b.id)).status).toBe('ca');
    });
  }

  it('a real draft can be cancelled', async () => {
    const { e } = ctx;
    const d = await draft(e);
    expect((await e.cancelBundle(d.id)).status).toBe('ca');
    expect(await eventKinds(e, d.id)).toEqual(['bc', 'bd', 'bx']);
  });

  it('keeps the status of signers who already finished', async () => {
    const { e } = ctx;
    const b = await sent(e);
    e.db.prepare(`UPDATE packets SET status = 'co' WHERE id = ?`).run(b.packets[0].id);
    const got = await e.cancelBundle(b.id);
    expect(got.packets.map((p) => p.status)).toEqual(['co', 'ca']);
  });

  it('a cancelled Bundle → 409', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.cancelBundle(b.id);
    await expectApiError(e.cancelBundle(b.id), 409, { code: 'conflict' });
    expect((await eventKinds(e, b.id)).filter((k) => k === 'bx')).toHaveLength(1);
  });

  for (const status of ['co', 'ex', 'fa']) {
    it(`a Bundle in ${status} → 409 and stays ${status}`, async () => {
      const { e } = ctx;
      const b = await sent(e);
      e.db.prepare('UPDATE bundles SET status = ? WHERE id = ?').run(status, b.id);
      await expectApiError(e.cancelBundle(b.id), 409, { code: 'conflict' });
      expect((await e.getBundle(b.id)).status).toBe(status);
    });
  }

  it('an unknown Bundle → 404', async () => {
    await expectApiError(ctx.e.cancelBundle('missing'), 404);
  });
});

describe('tags', () => {
  it('add is a union that ignores duplicates (event ta)', async () => {
    const { e } = ctx;
    const b = await sent(e);
    expect((await e.addBundleTags(b.id, ['a', 'b'])).tags).toEqual(['a', 'b']);
    expect((await e.addBundleTags(b.id, ['b', 'c', 'c'])).tags).toEqual(['a', 'b', 'c']);
    const events = (await e.listBundleEvents(b.id)).filter((x) => x.kind === 'ta');
    expect(events).toHaveLength(2);
    expect(events[1].description).toMatch(/c$/);
    expect(events[1].description).not.toMatch(/b/);
  });

  it('remove ignores tags the Bundle does not have (event tr)', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.addBundleTags(b.id, ['a', 'b', 'c']);
    expect((await e.removeBundleTags(b.id, ['b', 'zzz'])).tags).toEqual(['a', 'c']);
    expect((await e.removeBundleTags(b.id, ['zzz'])).tags).toEqual(['a', 'c']);
    expect((await eventKinds(e, b.id)).filter((k) => k === 'tr')).toHaveLength(1);
  });

  it('adding only tags already present changes nothing and records no event', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.addBundleTags(b.id, ['a']);
    const before = await eventKinds(e, b.id);
    expect((await e.addBundleTags(b.id, ['a'])).tags).toEqual(['a']);
    expect(await eventKinds(e, b.id)).toEqual(before);
  });

  it('tags are found by the list filter', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await e.addBundleTags(b.id, ['q3']);
    expect((await e.listBundles({ tag: 'q3' })).items.map((x) => x.id)).toEqual([b.id]);
    await e.removeBundleTags(b.id, ['q3']);
    expect((await e.listBundles({ tag: 'q3' })).total).toBe(0);
  });

  it('rejects an empty tag naming it', async () => {
    const { e } = ctx;
    const b = await sent(e);
    await expectApiError(e.addBundleTags(b.id, ['ok', '']), 400, { code: 'invalid', field: 'tags[1]' });
    expect((await e.getBundle(b.id)).tags).toEqual([]);
  });

  it('an unknown Bundle → 404', async () => {
    await expectApiError(ctx.e.addBundleTags('missing', ['a']), 404);
    await expectApiError(ctx.e.removeBundleTags('missing', ['a']), 404);
  });
});
