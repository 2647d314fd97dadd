// send_for_signature: a Bundle from signers and documents (a file here on stdio, a URL, base64, a
// Document Template) or an Envelope Template, sent at once or kept as a draft. Every create carries a
// custom_key (given, or derived from the request with files as their hashes): a retried call finds the
// Bundle the first one made, and says whether it was sent, is a draft, or has since been cancelled.
import { z } from 'zod';
import { type SignatureRequestInput, buildSignatureRequest } from '../../app/signatureRequest.js';
import { bundleStateWord, isEnded, isSendable } from '../../domain/states.js';
import type { Bundle } from '../../service/types.js';
import { count, ours, say } from '../prose.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';
import { createOnce, createReachesPeople, createSends, requireLive } from '../safety.js';
import { sendEffect } from '../sendPreview.js';
import type { ToolContext } from '../tool.js';
import { CONTENT_CHARS } from '../bounds.js';
import { ConciseBundle, concise } from '../views.js';
import { job } from './kit.js';

/** A field's value: as long as the API takes one. */
export const FIELD_VALUE = z.string().max(10_000);

const values = z.record(z.string(), z.union([FIELD_VALUE, z.number()]));

const signer = z.strictObject({
  name: z.string().min(1).max(200),
  email: z.string().max(200).optional(),
  phone: z.string().max(128).optional().describe('as typed (no country code: US); SMS if no email'),
  key: z.string().max(100).optional().describe('Envelope Template role'),
});

function documentSchema(fileAccess: boolean) {
  return z.strictObject({
    ...(fileAccess ? { path: z.string().min(1).max(4096).optional().describe('A PDF or office file here') } : {}),
    url: z.string().max(2048).optional(),
    base64: z.string().max(CONTENT_CHARS).optional(),
    template_id: z.string().max(200).optional().describe('A Document Template'),
    name: z.string().max(50).optional(),
    roles: z.record(z.string(), z.string().max(100)).optional().describe('Role: signer key/number/email/phone/name'),
    values: values.optional().describe('Template field values'),
  });
}

/** What the answer says about the Bundle a call made or found (`draft`: it was asked for as a draft). */
function outcome(b: Bundle, existing: boolean, draft: boolean): string {
  const state = ours(bundleStateWord(b.status));
  if (!existing && b.status === 'pe')
    return draft
      ? say`Made Bundle ${b.id}, pending: it becomes a draft once its documents are fetched and checked; nothing was sent. Then send it with send_draft.`
      : say`Made Bundle ${b.id}, pending: it sends to ${count(b.packets.length, 'signer')} once its documents are fetched and checked. If one cannot be, the Bundle goes Failed instead, with the reason in bundle_story. wait_for_bundles (until: sent) waits for either.`;
  if (!existing)
    return isSendable(b.status)
      ? say`Made draft Bundle ${b.id}: nothing was sent. Send it with send_draft.`
      : say`Made Bundle ${b.id} and sent it to ${count(b.packets.length, 'signer')} (${state}). wait_for_bundles waits for signatures.`;
  if (b.status === 'ca')
    return say`Bundle ${b.id} already exists for this request (the same custom_key) and is Cancelled: nothing was created or sent now. To send again, give a new custom_key.`;
  if (isEnded(b.status))
    return say`Bundle ${b.id} already exists for this request (the same custom_key) and has ended (${state}): nothing was created or sent now.`;
  return say`Bundle ${b.id} already exists for this request (the same custom_key), ${state}: nothing was created or sent now.`;
}

export const sendForSignature = (fileAccess: boolean) =>
  job({
    name: 'send_for_signature',
    title: 'Send documents for signature',
    description:
      `Makes a Bundle: signers and documents (${fileAccess ? 'a file path on this machine, ' : ''}a URL, base64, or a ` +
      'Document Template) or an Envelope Template; sent at once (a URL document: once fetched), or a draft (draft: true). ' +
      'Sending needs the go-ahead (confirm: true); without it, who would get what. ' +
      'A retry with the same arguments returns the Bundle already made (existing: true); nothing is sent twice. ' +
      'A draft already made: send_draft.',
    uses: ['createBundle', 'listBundles', 'getTemplate', 'getEnvelopeTemplate'],
    input: z.strictObject({
      label: z.string().max(200).optional(),
      signers: z.array(signer).min(1).max(50),
      documents: z.array(documentSchema(fileAccess)).max(50).optional(),
      envelope_template: z.string().max(200).optional(),
      values: values.optional().describe('Envelope Template field values'),
      subject: z.string().max(400).optional(),
      message: z.string().max(5000).optional(),
      draft: z.boolean().optional(),
      test: z.boolean().optional().describe('A test Bundle (not binding)'),
      in_order: z.boolean().optional(),
      expires: z.string().max(40).optional(),
      custom_key: z.string().max(200).optional(),
      confirm: z.boolean().optional().describe(CONFIRM_DESCRIPTION),
    }),
    output: z.object({ bundle: ConciseBundle, existing: z.boolean(), custom_key: z.string() }),
    async run(a, ctx: ToolContext) {
      const { service } = ctx;
      const req = await buildSignatureRequest(service, a as SignatureRequestInput, ctx.fileAccess);
      await requireLive(ctx, !createReachesPeople(req.body), say`create and send this Bundle`);
      const made = await createOnce(
        service,
        req.body,
        async (body) => {
          if (createSends(body)) await ctx.goAhead(a, sendEffect(body));
          ctx.beforeCreate?.();
          return service.createBundle(body, req.files);
        },
        req.identity,
      );
      return {
        say: outcome(made.bundle, made.existing, a.draft === true),
        data: { bundle: concise(made.bundle), existing: made.existing, custom_key: made.custom_key },
      };
    },
  });
