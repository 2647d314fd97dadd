// A declined Bundle (`de`) on every operation: one definition of "terminal" (the spec's: the sender
// can do nothing more) and of "ended" (no signer acts any more), both in domain/states.ts.
import { describe, expect, it } from 'vitest';
import { ENDED, TERMINAL, isEnded, isTerminal, reachedTarget } from '../../src/domain/states.js';
import { bundleRequest, expectApiError } from '../helpers.js';
import { useEngine } from './support.js';

const t = useEngine();

/** A sent Bundle of two signers (not in order) whose second signer declined. */
async function declined() {
  const b = await t.e.createBundle(bundleRequest({ in_order: false, send_reminders: true }));
  await t.e.declinePacket(b.packets[1]!.id, 'No');
  expect((await t.e.getBundle(b.id)).status).toBe('de');
  return b;
}

describe('states: terminal and ended', () => {
  it('ended is the terminal states plus Declined, and Declined is not terminal (spec)', () => {
    expect([...TERMINAL].sort()).toEqual(['ca', 'co', 'ex', 'fa']);
    expect([...ENDED].sort()).toEqual([...TERMINAL, 'de'].sort());
    expect(isTerminal('de')).toBe(false);
    expect(isEnded('de')).toBe(true);
    for (const s of ['ne', 'dr', 'pr', 'pe', 'se', 'st']) expect(isEnded(s) || isTerminal(s)).toBe(false);
  });

  it('a wait for "ended" stops at a declined Bundle', () => {
    expect(reachedTarget('ended', { status: 'de', sent: 'x', docs_ready: false, doc_status: 'no', packets: [] })).toBe(
      true,
    );
  });
});

describe('a declined Bundle', () => {
  it('can still be cancelled (any non-terminal state, spec)', async () => {
    const b = await declined();
    expect((await t.e.cancelBundle(b.id)).status).toBe('ca');
    await expectApiError(t.e.cancelBundle(b.id), 409, { message: /cancelled \(ca\) and cannot be cancelled/ });
  });

  it('can still be expired, like cancel', async () => {
    const b = await declined();
    expect((await t.e.expireBundle(b.id)).status).toBe('ex');
    await expectApiError(t.e.expireBundle(b.id), 409, { message: /cannot expire/ });
  });

  it('can still have interim files made (409 only in a terminal state, spec)', async () => {
    const b = await declined();
    t.e.account.setFeatures(['interim_files'], true);
    expect((await t.e.generateInterimFiles(b.id)).doc_status).toBe('in');
    await t.e.cancelBundle(b.id);
    await expectApiError(t.e.generateInterimFiles(b.id), 409);
  });

  it('is ended for its signers: no signer changes, reminders, embedded URLs or signing', async () => {
    const b = await declined();
    const ada = b.packets[0]!.id;
    // Before the single definition a declined Bundle's signers could still be changed (only the terminal states refused).
    await expectApiError(t.e.updatePacket(ada, { name: 'Ada L.' }), 400, {
      message: /declined \(de\); its signers can no longer be changed/,
    });
    await expectApiError(t.e.remindPacket(ada), 409, { message: /declined \(de\)/ });
    await expectApiError(t.e.signPacket(ada, {}), 409, { message: /declined \(de\)/ });
    expect((await t.e.getPacket(ada)).name).toBe('Ada Lovelace');
  });

  it('refuses a PATCH of the Bundle (only drafts and sent Bundles)', async () => {
    const b = await declined();
    await expectApiError(t.e.updateBundle(b.id, { cc_emails: [] }), 400, { message: /declined \(de\)/ });
  });

  it('the same signer change is refused alike in every ended state', async () => {
    for (const end of ['cancel', 'decline'] as const) {
      const b = await t.e.createBundle(bundleRequest({ in_order: false }));
      if (end === 'cancel') await t.e.cancelBundle(b.id);
      else await t.e.declinePacket(b.packets[1]!.id);
      const err = await expectApiError(t.e.updatePacket(b.packets[0]!.id, { name: 'X' }), 400);
      expect(err.message).toMatch(/; its signers can no longer be changed\.$/);
    }
  });
});
