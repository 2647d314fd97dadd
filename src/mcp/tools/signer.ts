// act_as_signer: what a signer does, where no real person signs (the local engine, esign serve's
// sandbox): open the documents, sign (the last signer completes the Bundle), decline, or hand the
// turn to another person. The hosted service has no such operations.
import { z } from 'zod';
import { signInputOf } from '../../domain/schemas.js';
import { bundleStateWord, signerStateWord } from '../../domain/states.js';
import type { Packet } from '../../service/types.js';
import { packetEffect } from '../effects.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';
import { ours, say } from '../prose.js';
import { id, job } from './kit.js';
import { FIELD_VALUE } from './send.js';

const ACTIONS = {
  view: 'open the documents as the signer',
  sign: 'sign as the signer',
  decline: 'decline as the signer',
  reassign: 'hand the signer’s turn to another person',
} as const;

export const actAsSigner = job({
  name: 'act_as_signer',
  title: 'Act as a signer (sandbox)',
  description:
    "Test runs only (the local engine, esign serve): as packet id's signer, view, sign " +
    '(values: field key -> value; signature, initials, name and date fill themselves), decline (reason) or reassign ' +
    '(to: name and email or phone). Needs the go-ahead (confirm: true).',
  uses: ['getPacket', 'getBundle', 'viewPacket', 'signPacket', 'declinePacket', 'reassignPacket'],
  input: z.strictObject({
    id,
    action: z.enum(['view', 'sign', 'decline', 'reassign']),
    values: z.record(z.string(), FIELD_VALUE).optional(),
    reason: z.string().max(1000).optional(),
    to: z
      .strictObject({
        name: z.string().min(1).max(200),
        email: z.string().max(200).optional(),
        phone: z.string().max(128).optional(),
      })
      .optional(),
    confirm: z.boolean().optional().describe(CONFIRM_DESCRIPTION),
  }),
  output: z.object({
    packet: z.object({ id: z.string(), name: z.string(), state: z.string() }),
    bundle: z.object({ id: z.string(), state: z.string() }).nullable(),
  }),
  async run(a, ctx) {
    const { service } = ctx;
    await ctx.goAhead(a, await packetEffect(service, a.id, ACTIONS[a.action], a.action !== 'view'));
    let p: Packet;
    if (a.action === 'view') p = await service.viewPacket(a.id);
    else if (a.action === 'sign') p = await service.signPacket(a.id, signInputOf({ values: a.values ?? {} }));
    else if (a.action === 'decline') p = await service.declinePacket(a.id, a.reason);
    else p = await service.reassignPacket(a.id, { ...(a.to ?? {}), ...(a.reason ? { reason: a.reason } : {}) });
    const slug = service.bundleOfPacket ? await service.bundleOfPacket(p.id).catch(() => undefined) : undefined;
    const b = slug ? await service.getBundle(slug) : undefined;
    const state = signerStateWord(p.status, b?.status ?? '');
    const after = b ? say` Bundle ${b.id} is now ${ours(bundleStateWord(b.status))}.` : '';
    return {
      say: say`Done: ${a.action} on packet ${a.id}; packet ${p.id} is ${ours(state)}.${ours(after)}`,
      data: {
        packet: { id: p.id, name: p.name, state },
        bundle: b ? { id: b.id, state: bundleStateWord(b.status) } : null,
      },
    };
  },
});
