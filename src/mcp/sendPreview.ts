// What a send would do, told before it is done: exactly who gets what. Built from the create body
// itself (the one the API receives), so the preview cannot differ from the send; names, addresses,
// labels and messages stay data (`target`), the prose counts and ids only.
import { count, ours, say } from './prose.js';
import type { Effect, Json } from './tool.js';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** Where a document of a create body comes from, in the program's words. */
function documentFrom(d: Json): string {
  if (d.file_url !== undefined) return 'fetched from its url';
  if (d.file_index !== undefined) return 'a file attached here';
  if (d.file_b64 !== undefined) return 'given as base64';
  if (d.template_id !== undefined) return 'a Document Template';
  return 'as given';
}

/** The go-ahead's effect for a create body that sends a new Bundle at once. */
export function sendEffect(body: Json, from?: string): Effect {
  const packets = (Array.isArray(body.packets) ? body.packets : []) as Json[];
  const documents = (Array.isArray(body.documents) ? body.documents : []) as Json[];
  const inOrder = body.in_order === true;
  const envelope = body.envelope_template as Json | undefined;
  const signers = packets.map((p, i) => {
    const sms = p.deliver_via === 'phone' || (p.email === undefined && p.phone !== undefined);
    return {
      name: str(p.name) ?? null,
      via: sms ? 'sms' : 'email',
      address: (sms ? str(p.phone) : str(p.email)) ?? null,
      ...(inOrder
        ? { order: i + 1, when: i === 0 ? 'at once' : 'after the signer before signs' }
        : { when: 'at once' }),
    };
  });
  const docs = envelope
    ? [{ name: null, from: 'an Envelope Template', template: str(envelope.template_id) ?? null }]
    : documents.map((d) => ({ name: str(d.filename) ?? str(d.key) ?? null, from: documentFrom(d) }));
  const sms = signers.filter((s) => s.via === 'sms').length;
  const how = sms ? say`, ${signers.length - sms} by email and ${sms} by SMS` : say` by email`;
  return {
    action: say`send a new Bundle${ours(from ?? '')} to ${count(signers.length, 'signer')}${ours(how)}${ours(inOrder ? ', one after another in order' : '')}, each with a link to sign ${count(docs.length, 'document')}${ours(body.is_test === true ? ' (a test Bundle, not binding)' : '')}`,
    target: {
      label: str(body.label) ?? '',
      test: body.is_test === true,
      signers,
      documents: docs,
      subject: str(body.email_subject) ?? null,
      message: str(body.email_message) ?? null,
    },
    reachesPeople: true,
  };
}
