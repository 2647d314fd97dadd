// The message a signer gets when it is their turn, or a reminder: recorded in the messages outbox.
import { type BundleRow, type PacketRow, bundleAttrs, packetAttrs } from '../bundles/read.js';
import { recordEvent } from '../bundles/events.js';
import { createLink } from '../bundles/links.js';
import type { EngineContext } from '../store/context.js';
import type { MessageKind } from './outbox.js';
import { deliverMessage } from './testDelivery.js';
import { normalizePhone } from '../../domain/phone.js';

/** A signing link in a message works for 30 days (or until the Bundle ends). */
const MESSAGE_LINK_TTL_MS = 30 * 86400e3;

/**
 * Records the message a signer would get by their delivery method, unless suppressed. Embedded
 * signers get nothing: the sender hands them a URL; a test Bundle's reach only verified users
 * (testDelivery.ts). Returns whether a message was recorded.
 */
export function notify(
  ctx: EngineContext,
  b: BundleRow,
  p: PacketRow,
  kind: Extract<MessageKind, 'signing_request' | 'reminder'>,
): boolean {
  const pa = packetAttrs(p);
  if (p.deliver_via === 'embed' || pa.suppress_all) return false;
  if (kind === 'signing_request' && pa.suppress_signing) return false;
  const ba = bundleAttrs(b);
  const at = ctx.clock.now();
  const title = b.label || 'documents';
  const link = createLink(ctx, 'sign', p.id, MESSAGE_LINK_TTL_MS).url;
  const prefix = kind === 'reminder' ? 'Reminder: ' : '';
  let sent: boolean;
  if (p.deliver_via === 'phone') {
    const text = pa.sms_message || ba.sms_message || `${ba.requester_name} asks you to sign "${title}".`;
    sent = deliverMessage(ctx, b, {
      created: at,
      channel: 'sms',
      kind,
      recipient: normalizePhone(p.phone!),
      subject: `${prefix}${title}`,
      body: `${prefix}${text} ${link}`,
      bundle_id: b.id,
      packet_id: p.id,
    });
  } else {
    const subject = `${prefix}${ba.email_subject || `${ba.requester_name} sent you "${title}" to sign`}`;
    const message = pa.email_message || ba.email_message || `Please review and sign "${title}".`;
    sent = deliverMessage(ctx, b, {
      created: at,
      channel: 'email',
      kind,
      recipient: p.email!,
      subject,
      body: `Hello ${p.name},\n\n${message}\n\nOpen the documents: ${link}\n\n${ba.requester_name} <${ba.requester_email}>`,
      bundle_id: b.id,
      packet_id: p.id,
    });
  }
  if (!sent) return false;
  recordEvent(ctx.db, {
    bundleSeq: b.seq,
    kind: kind === 'reminder' ? 'pr' : 'ns',
    at,
    packetId: p.id,
    detail: p.deliver_via === 'phone' ? p.phone! : p.email!,
  });
  return true;
}
