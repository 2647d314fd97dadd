// The changes an agent makes to a Bundle it sent: send a draft, remind the signers, cancel. Each
// says first what it would do (which Bundle, its state) and whether it can, and goes ahead only
// with the person's or the agent's go-ahead (goAhead.ts).
import { z } from 'zod';
import { signersToRemind } from '../../app/remind.js';
import { bundleStateWord } from '../../service/states.js';
import { BUNDLE_RULES, alreadyDone, bundleEffect, packetEffect } from '../effects.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';
import { count, ours, say } from '../prose.js';
import { requireLive } from '../safety.js';
import type { Bundle } from '../../service/types.js';
import { BundleState } from '../views.js';
import { id, job } from './kit.js';

const confirm = z.boolean().optional().describe(CONFIRM_DESCRIPTION);
const BundleAnswer = z.object({ bundle: BundleState });
const stateOf = (b: Bundle) => ({ id: b.id, state: bundleStateWord(b.status), sent: b.sent });

export const sendDraft = job({
  name: 'send_draft',
  title: 'Send a draft Bundle',
  description: 'Sends a draft Bundle (made with draft: true) to its signers. Needs the go-ahead (confirm: true).',
  uses: ['getBundle', 'sendBundle'],
  input: z.strictObject({ id, confirm }),
  output: BundleAnswer,
  async run(a, ctx) {
    const effect = await bundleEffect(ctx.service, a.id, BUNDLE_RULES.sendBundle!);
    await requireLive(ctx, async () => (await ctx.service.getBundle(a.id)).is_test, say`send Bundle ${a.id}`);
    await ctx.goAhead(a, effect);
    const b = await ctx.service.sendBundle(a.id);
    return { say: say`Sent Bundle ${b.id} to ${count(b.packets.length, 'signer')}.`, data: { bundle: stateOf(b) } };
  },
});

export const cancelBundle = job({
  name: 'cancel_bundle',
  title: 'Cancel a Bundle',
  description:
    'Cancels a Bundle that has not ended, a draft included: signers can no longer sign it, and it is kept (to remove a ' +
    'draft instead: call_operation deleteBundle). Needs the go-ahead (confirm: true); without it, says what it would ' +
    'cancel. A Bundle already cancelled is answered as it is (a repeat is safe).',
  uses: ['getBundle', 'cancelBundle'],
  input: z.strictObject({ id, confirm }),
  output: BundleAnswer,
  async run(a, ctx) {
    const was = await alreadyDone(ctx.service, a.id, BUNDLE_RULES.cancelBundle!);
    if (was)
      return { say: say`Bundle ${was.id} is already Cancelled: nothing changed.`, data: { bundle: stateOf(was) } };
    await ctx.goAhead(a, await bundleEffect(ctx.service, a.id, BUNDLE_RULES.cancelBundle!));
    const b = await ctx.service.cancelBundle(a.id);
    return { say: say`Cancelled Bundle ${b.id} (${ours(bundleStateWord(b.status))}).`, data: { bundle: stateOf(b) } };
  },
});

export const remindSigners = job({
  name: 'remind_signers',
  title: 'Remind signers',
  description:
    'Emails or texts a reminder: to one signer (id: a packet id), or to every signer whose turn it is (id: a Bundle slug). ' +
    'Once an hour per signer at most. Needs the go-ahead (confirm: true).',
  uses: ['getBundle', 'getPacket', 'remindPacket'],
  input: z.strictObject({ id, confirm }),
  output: z.object({ reminded: z.array(z.object({ id: z.string(), name: z.string() })) }),
  async run(a, ctx) {
    const { service } = ctx;
    const isBundle = await service.getBundle(a.id).then(
      () => true,
      () => false,
    );
    const packets = isBundle ? await signersToRemind(service, a.id) : [await service.getPacket(a.id)];
    const effect = isBundle
      ? {
          action: say`remind ${count(packets.length, 'signer')} of Bundle ${a.id}`,
          target: { signers: packets.map((p) => ({ id: p.id, name: p.name, address: p.email ?? p.phone })) },
          reachesPeople: true,
        }
      : await packetEffect(service, a.id, 'remind the signer', true);
    await requireLive(ctx, async () => (isBundle ? (await service.getBundle(a.id)).is_test : false), say`remind`);
    await ctx.goAhead(a, effect);
    const reminded = [];
    for (const p of packets) reminded.push(await service.remindPacket(p.id));
    return {
      say: say`Reminded ${count(reminded.length, 'signer')}.`,
      data: { reminded: reminded.map((p) => ({ id: p.id, name: p.name })) },
    };
  },
});
