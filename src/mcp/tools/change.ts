// The changes an agent makes to a Bundle it sent: send a draft, remind the signers, cancel. Each
// says first what it would do (which Bundle, its state) and whether it can, and goes ahead only
// with the person's or the agent's go-ahead (goAhead.ts).
import { z } from 'zod';
import { UseCaseError } from '../../app/failure.js';
import { signersToRemind } from '../../app/remind.js';
import { ApiError } from '../../domain/errors.js';
import { bundleStateWord } from '../../domain/states.js';
import { BUNDLE_RULES, alreadyDone, bundleEffect, packetEffect } from '../effects.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';
import { count, ours, say } from '../prose.js';
import { requireLive } from '../safety.js';
import type { Bundle, Packet } from '../../service/types.js';
import type { Json, ToolContext } from '../tool.js';
import { BundleState } from '../views.js';
import { BULK_LIMIT, type FindSetArgs, bulkShape, findSet, requireOneTarget } from './foundSet.js';
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

/** A bulk call's answer beside the one-Bundle answer: what was done, left alone or failed, of how many matched. */
const Bulk = {
  not_done: z.array(z.object({ id: z.string(), why: z.string() })).optional(),
  matched: z.int().optional(),
  left_for_next_call: z.int().optional(),
  now: z.string().optional(),
};

const isBulk = (a: Json) => a.ids !== undefined || a.find !== undefined;

/** The failure of one Bundle of a bulk call, in the API's words (other errors are not the Bundle's). */
const failureOf = (slug: string, e: unknown) => {
  if (e instanceof ApiError || e instanceof UseCaseError) return { id: slug, why: `failed: ${e.message}` };
  throw e;
};

/** What a bulk call's answer holds beside what it did: ids it could not read are not done. */
const bulkBase = (found: Awaited<ReturnType<typeof findSet>>, notDone: { id: string; why: string }[]) => ({
  not_done: [...found.missing.map((m) => ({ id: m.id, why: `not found: ${m.error}` })), ...notDone],
  matched: found.matched + found.missing.length,
  left_for_next_call: found.matched - found.bundles.length,
  now: found.now,
});

/** How many of the matches this call leaves for the next, in words for the preview. */
const firstOf = (found: { bundles: unknown[]; matched: number }) =>
  found.matched > found.bundles.length
    ? ours(` (the first ${found.bundles.length} of ${found.matched} that match, oldest first)`)
    : ours('');

export const cancelBundle = job({
  name: 'cancel_bundle',
  title: 'Cancel Bundles',
  description:
    'Cancels Bundles that have not ended, drafts included: signers can no longer sign, and each is kept (to remove a ' +
    'draft: call_operation deleteBundle). One (id), several (ids) or all that match (find, e.g. states [draft], ' +
    `older_than_days 7 on the server's clock; ${BULK_LIMIT} a call), one go-ahead for all (confirm: true). One ` +
    'already cancelled is answered as it is.',
  uses: ['getBundle', 'listBundles', 'cancelBundle'],
  long: isBulk,
  input: z.strictObject({ id: id.optional(), ...bulkShape, confirm }),
  output: z.object({ bundle: BundleState.optional(), cancelled: z.array(BundleState).optional(), ...Bulk }),
  async run(a, ctx) {
    requireOneTarget(a);
    if (a.id === undefined) return cancelMany(a, ctx);
    const was = await alreadyDone(ctx.service, a.id, BUNDLE_RULES.cancelBundle!);
    if (was)
      return { say: say`Bundle ${was.id} is already Cancelled: nothing changed.`, data: { bundle: stateOf(was) } };
    await ctx.goAhead(a, await bundleEffect(ctx.service, a.id, BUNDLE_RULES.cancelBundle!));
    const b = await ctx.service.cancelBundle(a.id);
    return { say: say`Cancelled Bundle ${b.id} (${ours(bundleStateWord(b.status))}).`, data: { bundle: stateOf(b) } };
  },
});

async function cancelMany(a: Json & { ids?: string[]; find?: FindSetArgs }, ctx: ToolContext) {
  const found = await findSet(ctx.service, a);
  const rule = BUNDLE_RULES.cancelBundle!;
  const unchanged = found.bundles
    .filter((b) => !rule.allowed!(b.status))
    .map((b) => ({
      id: b.id,
      why: b.status === 'ca' ? 'already Cancelled' : `${bundleStateWord(b.status)}: it has ended`,
    }));
  const toCancel = found.bundles.filter((b) => rule.allowed!(b.status));
  const base = bulkBase(found, unchanged);
  if (!toCancel.length)
    return {
      say: say`Nothing to cancel: ${count(found.matched, 'Bundle')} matched, none that has not ended.`,
      data: { cancelled: [], ...base },
    };
  await ctx.goAhead(a, {
    action: say`cancel ${count(toCancel.length, 'Bundle')}${firstOf(found)}: their signers can no longer sign`,
    target: {
      now: found.now,
      bundles: toCancel.map((b) => ({
        id: b.id,
        label: b.label,
        state: bundleStateWord(b.status),
        created: b.created,
        signers: b.packets.length,
      })),
    },
  });
  const cancelled = [];
  const failed: { id: string; why: string }[] = [];
  for (const b of toCancel) {
    ctx.status(say`cancelling: ${cancelled.length + failed.length} of ${count(toCancel.length, 'Bundle')} done`);
    try {
      cancelled.push(stateOf(await ctx.service.cancelBundle(b.id)));
    } catch (e) {
      failed.push(failureOf(b.id, e));
    }
  }
  const more = base.left_for_next_call ? say` ${base.left_for_next_call} more match: call again.` : '';
  return {
    say: say`Cancelled ${count(cancelled.length, 'Bundle')}; ${unchanged.length} left as they were, ${failed.length + found.missing.length} failed.${ours(more)}`,
    data: { cancelled, ...base, not_done: [...base.not_done, ...failed] },
  };
}

export const remindSigners = job({
  name: 'remind_signers',
  title: 'Remind signers',
  description:
    'Emails or texts a reminder: to one signer (id: a packet id), or to every signer whose turn it is (id: a Bundle slug; ' +
    'ids or find: of each Bundle, as in cancel_bundle). At most once an hour per signer. One go-ahead for all ' +
    '(confirm: true).',
  uses: ['getBundle', 'listBundles', 'getPacket', 'remindPacket'],
  long: isBulk,
  input: z.strictObject({ id: id.optional(), ...bulkShape, confirm }),
  output: z.object({
    reminded: z.array(z.object({ id: z.string(), name: z.string(), bundle: z.string().optional() })),
    ...Bulk,
  }),
  async run(a, ctx) {
    requireOneTarget(a);
    if (a.id === undefined) return remindMany(a, ctx);
    const { service } = ctx;
    const slug = a.id;
    const isBundle = await service.getBundle(slug).then(
      () => true,
      () => false,
    );
    const packets = isBundle ? await signersToRemind(service, slug) : [await service.getPacket(slug)];
    const effect = isBundle
      ? {
          action: say`remind ${count(packets.length, 'signer')} of Bundle ${slug}`,
          target: { signers: packets.map((p) => ({ id: p.id, name: p.name, address: p.email ?? p.phone })) },
          reachesPeople: true,
        }
      : await packetEffect(service, slug, 'remind the signer', true);
    await requireLive(ctx, async () => (isBundle ? (await service.getBundle(slug)).is_test : false), say`remind`);
    await ctx.goAhead(a, effect);
    const reminded = [];
    for (const p of packets) reminded.push(await service.remindPacket(p.id));
    return {
      say: say`Reminded ${count(reminded.length, 'signer')}.`,
      data: { reminded: reminded.map((p) => ({ id: p.id, name: p.name })) },
    };
  },
});

async function remindMany(a: Json & { ids?: string[]; find?: FindSetArgs }, ctx: ToolContext) {
  const { service } = ctx;
  const found = await findSet(service, a);
  const due: { bundle: Bundle; packets: Packet[] }[] = [];
  const unchanged: { id: string; why: string }[] = [];
  for (const b of found.bundles)
    await signersToRemind(service, b.id).then(
      (packets) => void due.push({ bundle: b, packets }),
      (e: unknown) => {
        if (!(e instanceof UseCaseError)) throw e;
        unchanged.push({ id: b.id, why: e.message });
      },
    );
  const base = bulkBase(found, unchanged);
  const signers = due.reduce((n, d) => n + d.packets.length, 0);
  if (!signers)
    return {
      say: say`Nobody to remind: ${count(found.matched, 'Bundle')} matched, none with a signer whose turn it is.`,
      data: { reminded: [], ...base },
    };
  await requireLive(
    ctx,
    due.every((d) => d.bundle.is_test),
    say`remind`,
  );
  await ctx.goAhead(a, {
    action: say`remind ${count(signers, 'signer')} of ${count(due.length, 'Bundle')}${firstOf(found)}`,
    target: {
      bundles: due.map((d) => ({
        id: d.bundle.id,
        label: d.bundle.label,
        signers: d.packets.map((p) => ({
          id: p.id,
          name: p.name,
          via: p.deliver_via === 'phone' ? 'sms' : 'email',
          address: p.deliver_via === 'phone' ? p.phone : p.email,
        })),
      })),
    },
    reachesPeople: true,
  });
  const reminded: { id: string; name: string; bundle: string }[] = [];
  const failed: { id: string; why: string }[] = [];
  for (const d of due)
    for (const p of d.packets) {
      ctx.status(say`reminding: ${reminded.length + failed.length} of ${count(signers, 'signer')} done`);
      try {
        const r = await service.remindPacket(p.id);
        reminded.push({ id: r.id, name: r.name, bundle: d.bundle.id });
      } catch (e) {
        failed.push(failureOf(p.id, e));
      }
    }
  const more = base.left_for_next_call ? say` ${base.left_for_next_call} more match: call again.` : '';
  return {
    say: say`Reminded ${count(reminded.length, 'signer')} of ${count(due.length, 'Bundle')}; ${unchanged.length} Bundles had nobody to remind, ${failed.length + found.missing.length} failed.${ours(more)}`,
    data: { reminded, ...base, not_done: [...base.not_done, ...failed] },
  };
}
