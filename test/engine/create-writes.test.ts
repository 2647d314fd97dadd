// A create writes its rows once and answers from them: the answer is what a read gives, and a
// Bundle launched at creation has the packets a later launch (a draft sent) would leave.
import { describe, expect, it } from 'vitest';
import { CONTRACT_B64, bundleRequest } from '../helpers.js';
import { eventKinds, useEngine, withPacket } from './support.js';

const ctx = useEngine();
type Row = { key: string; status: string; notified_at: string | null; next_reminder_at: string | null };
const packetRows = (slug: string) =>
  ctx.e.db
    .prepare(
      'SELECT p.key, p.status, p.notified_at, p.next_reminder_at FROM packets p JOIN bundles b ON b.seq = p.bundle_seq WHERE b.id = ? ORDER BY p.idx',
    )
    .all(slug) as Row[];
/** Times as days after the Bundle was sent, so two Bundles launched at different instants compare. */
const relative = (rows: Row[], sent: string) =>
  rows.map((r) => ({
    ...r,
    notified_at: r.notified_at && (Date.parse(r.notified_at) - Date.parse(sent)) / 86_400_000,
    next_reminder_at: r.next_reminder_at && (Date.parse(r.next_reminder_at) - Date.parse(sent)) / 86_400_000,
  }));

describe('a create answers with the Bundle as written', () => {
  const shapes: [string, Record<string, unknown>][] = [
    ['sent, two signers', bundleRequest()],
    ['in order', bundleRequest({ in_order: true })],
    ['a draft', bundleRequest({ is_draft: true })],
    [
      'an embedded signer and reminders set',
      withPacket(1, { deliver_via: 'embed' }, bundleRequest({ reminder_offset: 2, custom_key: 'k-1' })),
    ],
  ];
  for (const [name, request] of shapes)
    it(`${name}: the answer equals a read of it`, async () => {
      const created = await ctx.e.createBundle(request);
      expect(await ctx.e.getBundle(created.id)).toEqual(created);
    });
});

describe('a Bundle launched at creation', () => {
  for (const inOrder of [false, true])
    it(`has the packets a draft sent later has (in_order ${inOrder}): asked, with their next reminder`, async () => {
      const now = await ctx.e.createBundle(bundleRequest({ in_order: inOrder, reminder_offset: 2 }));
      const draft = await ctx.e.createBundle(bundleRequest({ in_order: inOrder, reminder_offset: 2, is_draft: true }));
      const later = await ctx.e.sendBundle(draft.id);
      const launched = relative(packetRows(now.id), now.sent!);
      expect(launched).toEqual(relative(packetRows(later.id), later.sent!));
      expect(launched.map((p) => p.status)).toEqual(inOrder ? ['se', 'ne'] : ['se', 'se']);
      expect(launched[0]).toMatchObject({ notified_at: 0, next_reminder_at: 2 });
      expect(await eventKinds(ctx.e, now.id)).toEqual(['bc', 'bl', ...(inOrder ? ['ns'] : ['ns', 'ns'])]);
    });
});

describe('a PDF already in the file store', () => {
  it('is not parsed again: its page count comes from the store', async () => {
    const first = await ctx.e.createBundle(bundleRequest());
    const pages = () =>
      (
        ctx.e.db
          .prepare(`SELECT d.spec FROM documents d JOIN bundles b ON b.seq = d.bundle_seq WHERE b.id = ?`)
          .pluck()
          .all(first.id) as string[]
      ).map((s) => (JSON.parse(s) as { pages: number }).pages);
    expect(pages()).toEqual([1]);
    // The store says these bytes have 7 pages: a create that parsed them would say 1.
    ctx.e.db.prepare('UPDATE blobs SET pages = 7').run();
    const again = await ctx.e.createBundle(bundleRequest({ documents: [{ key: 'contract', file_b64: CONTRACT_B64 }] }));
    const spec = ctx.e.db
      .prepare(`SELECT d.spec FROM documents d JOIN bundles b ON b.seq = d.bundle_seq WHERE b.id = ?`)
      .pluck()
      .get(again.id) as string;
    expect((JSON.parse(spec) as { pages: number }).pages).toBe(7);
  });
});
