// The console's actions, each a confirmation page (GET), then the change (POST), then the Bundle's
// page with what the backend answered (a failure said as one). Cancel a Bundle, remind a signer,
// resend a webhook delivery, enable a webhook and send what it missed, and show one signing link whole.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ComponentChildren } from 'preact';
import { deliveryOutcome } from '../../app/deliveryOutcome.js';
import { MISSED_NOT_KEPT, missedWords, resendMissedOutcome } from '../../app/missedEvents.js';
import { signingLinkIn } from '../../app/secretLinks.js';
import { ApiError } from '../../domain/errors.js';
import { operationNamed } from '../../service/operations.js';
import type { EsignService } from '../../service/service.js';
import { bundleStateWord } from '../../domain/states.js';
import type { WebhookEvent } from '../../service/types.js';
import { bundleOfPayload, isDeliveredStatus } from '../../service/webhookEvents.js';
import { bundleUrl } from './find.js';
import { ConfirmPage, SigningLinkPage } from './pages.js';
import { type Console, param, READ_ONLY, sessionOf } from './scope.js';
import type { Flash } from './sessions.js';

interface Confirmation {
  title: string;
  text: string;
  danger?: boolean;
}

/** What an action's POST gives: the outcome for the Bundle's page, or a page of its own. */
type Done = Flash | { page: { title: string; body: ComponentChildren } };

/**
 * An action: a confirmation page (GET), then the change (POST). Each names the port operation it
 * runs (the operations table says what it does to the world), or none for what is no API operation
 * and only a console that may act offers (a signing link, sending a webhook's missed events).
 */
function registerAction(
  scope: FastifyInstance,
  { s, page, problem, readOnly }: Console,
  path: string,
  opName: (keyof EsignService & string) | null,
  confirm: (req: FastifyRequest) => Promise<Confirmation>,
  run: (req: FastifyRequest) => Promise<Done>,
) {
  const op = opName ? operationNamed(opName) : undefined;
  if (opName && !op) throw new Error(`console: no operation named ${opName}`);
  const refused = readOnly && op?.effect !== 'read';
  scope.get(path, async (req, reply) => {
    if (refused) return problem(req, reply, 403, 'Read-only', READ_ONLY);
    const c = await confirm(req);
    const people = op?.reachesPeople
      ? ` ${s.capabilities.sendsForReal ? 'A real person receives it.' : 'It goes to the outbox.'}`
      : '';
    return page(
      req,
      reply,
      200,
      c.title,
      <ConfirmPage
        {...c}
        text={`${c.text}${people}`}
        action={req.url.split('?')[0]!}
        csrf={sessionOf.get(req)!.csrf}
        back={bundleUrl(param(req, 'slug'))}
      />,
    );
  });
  scope.post(path, async (req, reply) => {
    if (refused) return problem(req, reply, 403, 'Read-only', READ_ONLY);
    const done = await run(req);
    if ('page' in done) return page(req, reply, 200, done.page.title, done.page.body);
    sessionOf.get(req)!.flash = done;
    return reply
      .code(303)
      .header('Location', bundleUrl(param(req, 'slug')))
      .send();
  });
}

/** What a resend's last attempt says: delivered, or failed with the status and how the reply began. */
function resendOutcome(e: WebhookEvent): Flash {
  const last = e.deliveries.at(-1);
  if (!last) return { ok: false, text: 'The delivery was not attempted: the backend recorded no attempt.' };
  return isDeliveredStatus(last.status)
    ? { ok: true, text: `Delivered: the receiver answered ${deliveryOutcome(last)}.` }
    : { ok: false, text: `The delivery failed again: ${deliveryOutcome(last)}.` };
}

/** Cancel a Bundle, remind a signer, resend a webhook delivery, show a signing link. */
export function registerActions(scope: FastifyInstance, c: Console) {
  const { s } = c;
  const packetOf = async (req: FastifyRequest) => {
    const b = await s.getBundle(param(req, 'slug'));
    const p = b.packets.find((x) => x.id === param(req, 'packet'));
    if (!p) throw new ApiError(404, 'not_found', 'No such signer in this Bundle.');
    return { b, p };
  };
  const eventOf = async (req: FastifyRequest): Promise<WebhookEvent> => {
    const e = await s.getWebhookEvent(param(req, 'event'));
    if (bundleOfPayload(e.payload) !== param(req, 'slug'))
      throw new ApiError(404, 'not_found', 'No such webhook event for this Bundle.');
    return e;
  };
  registerAction(
    scope,
    c,
    '/bundles/:slug/cancel',
    'cancelBundle',
    async (req) => {
      const b = await s.getBundle(param(req, 'slug'));
      return {
        title: 'Cancel the Bundle',
        danger: true,
        text: `Cancel "${b.label || b.id}"? Its signers can no longer sign, and this cannot be undone.`,
      };
    },
    async (req) => {
      const b = await s.cancelBundle(param(req, 'slug'));
      return { ok: b.status === 'ca', text: `The Bundle is now ${bundleStateWord(b.status)}.` };
    },
  );
  registerAction(
    scope,
    c,
    '/bundles/:slug/packets/:packet/remind',
    'remindPacket',
    async (req) => {
      const { p } = await packetOf(req);
      return { title: `Remind ${p.name}`, text: `Send ${p.name} a reminder now, by ${channelOf(p)}?` };
    },
    async (req) => {
      const { p } = await packetOf(req);
      await s.remindPacket(p.id);
      return { ok: true, text: `A reminder went to ${p.name} by ${channelOf(p)}.` };
    },
  );
  registerAction(
    scope,
    c,
    '/bundles/:slug/webhook-events/:event/resend',
    'resendWebhookEvent',
    async (req) => {
      const e = await eventOf(req);
      return {
        title: 'Resend the delivery',
        text: `Deliver the ${e.event_type} event (${e.pk}) again now, whatever its state?`,
      };
    },
    async (req) => resendOutcome(await s.resendWebhookEvent((await eventOf(req)).pk)),
  );
  /** What a webhook missed while disabled: null with none, undefined where the backend keeps no record. */
  const missedOf = async (webhook: string) =>
    s.listMissedWebhookEvents ? ((await s.listMissedWebhookEvents({ webhook }))[0] ?? null) : undefined;
  const webhookOf = async (req: FastifyRequest) => {
    const w = await s.getWebhook(param(req, 'webhook'));
    if (w.enabled) throw new ApiError(409, 'conflict', `The webhook ${w.name} is already enabled.`);
    return w;
  };
  registerAction(
    scope,
    c,
    '/bundles/:slug/webhook/:webhook/enable',
    'updateWebhook',
    async (req) => {
      const w = await webhookOf(req);
      const missed = await missedOf(w.id);
      const then =
        missed === undefined
          ? 'events that happened while it was disabled are not sent (this backend keeps no record of them).'
          : missed
            ? `the ${missedWords(missed)} are kept, and this page then offers to send those about this Bundle.`
            : 'it missed no event while disabled.';
      return {
        title: `Enable ${w.name} again`,
        text: `Enable the webhook ${w.name} (${w.url}) again? Events from now on are delivered to it; ${then}`,
      };
    },
    async (req) => {
      const w = await s.updateWebhook((await webhookOf(req)).id, { enabled: true });
      const missed = await missedOf(w.id);
      const kept = missed
        ? ` Kept for it: ${missedWords(missed)}; this page offers to send those about this Bundle, and esign webhook resend-missed ${w.id} sends every one.`
        : '';
      return {
        ok: w.enabled,
        text: `The webhook ${w.name} is enabled again: new events are delivered to it.${kept}`,
      };
    },
  );
  registerAction(
    scope,
    c,
    '/bundles/:slug/webhook/:webhook/resend-missed',
    null,
    async (req) => {
      const w = await s.getWebhook(param(req, 'webhook'));
      const missed = await missedOf(w.id);
      if (missed === undefined) throw new ApiError(404, 'not_found', MISSED_NOT_KEPT);
      if (!w.enabled) throw new ApiError(409, 'conflict', `The webhook ${w.name} is disabled: enable it again first.`);
      // The Bundle page offers this Bundle's: the others are sent from the terminal, all at once.
      const here = (await s.listMissedWebhookEvents!({ webhook: w.id, bundle: param(req, 'slug') }))[0]?.count ?? 0;
      const others = (missed?.count ?? 0) - here;
      const rest = others
        ? ` It missed ${plural(others, 'more event')} about other Bundles or templates: esign webhook resend-missed ${w.id} sends every one.`
        : '';
      return {
        title: `Send what ${w.name} missed about this Bundle`,
        text: here
          ? `Send the ${plural(here, 'event')} ${w.name} missed about this Bundle while disabled to ${w.url} now, each once?${rest}`
          : `The webhook ${w.name} missed no event about this Bundle.${rest}`,
      };
    },
    async (req) => {
      const w = await s.getWebhook(param(req, 'webhook'));
      if (!s.resendMissedWebhookEvents) throw new ApiError(404, 'not_found', MISSED_NOT_KEPT);
      return resendMissedOutcome(
        w.name,
        await s.resendMissedWebhookEvents(w.id, { bundle: param(req, 'slug') }),
        'about this Bundle',
      );
    },
  );
  registerSigningLink(scope, c);
}

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

const channelOf = (p: { deliver_via: string; phone: string | null; email: string | null }) =>
  p.deliver_via === 'phone' ? `SMS to ${p.phone}` : `email to ${p.email}`;

/**
 * A signing link, whole, for a console that may act: whoever opens it signs as its signer, so it is
 * asked for on purpose, says whose it is, and is never put in a URL, a log or the session.
 */
function registerSigningLink(scope: FastifyInstance, c: Console) {
  const { s } = c;
  const linkOf = async (req: FastifyRequest) => {
    const slug = param(req, 'slug');
    if (!s.listBundleMessages) throw new ApiError(404, 'not_found', 'This backend does not show its messages.');
    const [b, messages] = await Promise.all([s.getBundle(slug), s.listBundleMessages(slug)]);
    const m = messages.find((x) => String(x.id) === param(req, 'message'));
    const link = m && signingLinkIn(m.body);
    if (!m || !link) throw new ApiError(404, 'not_found', 'No such message with a signing link in this Bundle.');
    const p = b.packets.find((x) => x.id === m.packet_id);
    const who = p ? `${p.name} <${p.email ?? p.phone ?? m.recipient}>` : m.recipient;
    return { link, who };
  };
  registerAction(
    scope,
    c,
    '/bundles/:slug/messages/:message/signing-link',
    null,
    async (req) => {
      const { who } = await linkOf(req);
      return {
        title: 'Show the signing link',
        danger: true,
        text: `This link acts as ${who}: whoever opens it can sign in their name. Show it whole, to copy it?`,
      };
    },
    async (req) => {
      const { link, who } = await linkOf(req);
      return {
        page: {
          title: 'Signing link',
          body: <SigningLinkPage link={link} who={who} back={bundleUrl(param(req, 'slug'))} />,
        },
      };
    },
  );
}
