// Webhook health (the use case app/webhookFailures: why deliveries failed, per webhook) and resending
// events that were not delivered (esign's sandbox: the local engine and esign serve).
import { z } from 'zod';
import { webhookFailures } from '../../app/webhookFailures.js';
import { CONFIRM_DESCRIPTION } from '../goAhead.js';
import { count, ours, say } from '../prose.js';
import { MISSED_NOT_KEPT, missedWords, resendMissedOutcome } from '../../app/missedEvents.js';
import { Refusal, type ToolContext } from '../tool.js';
import { day, id, job } from './kit.js';

const Failing = z.object({
  event: z.string(),
  event_type: z.string(),
  bundle: z.string().nullable(),
  attempts: z.int(),
  last_status: z.int(),
  last_attempt_at: z.string().nullable(),
  last_outcome: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});

export const webhookHealthTool = job({
  name: 'webhook_health',
  title: 'Webhook health',
  description:
    'Why webhook deliveries fail: per webhook, events delivered and not, and the latest undelivered ones with the last ' +
    "attempt's status, the receiver's answer (last_outcome) and the next retry. Use it before resend_webhook_events.",
  uses: ['listWebhooks', 'getWebhook', 'listWebhookEvents'],
  input: z.strictObject({
    webhook: id.optional().describe('One webhook id (default: all)'),
    since: day.optional(),
    failures: z.int().min(0).max(20).default(5).describe('Undelivered events shown per webhook'),
  }),
  output: z.object({
    webhooks: z.array(
      z.object({
        webhook: z.looseObject({ id: z.string(), name: z.string(), url: z.string(), enabled: z.boolean() }),
        delivered: z.int(),
        not_delivered: z.int(),
        failing: z.array(Failing),
      }),
    ),
  }),
  async run(a, { service }) {
    const hooks = await webhookFailures(service, { webhook: a.webhook, since: a.since, failures: a.failures });
    const failingHooks = hooks.filter((h) => h.not_delivered > 0).length;
    const undelivered = hooks.reduce((n, h) => n + h.not_delivered, 0);
    return {
      say: undelivered
        ? say`${count(undelivered, 'event')} not delivered, on ${ours(failingHooks < hooks.length ? `${failingHooks} of ` : '')}${count(hooks.length, 'webhook')}. Each webhook's latest undelivered events are in the data.`
        : say`${count(hooks.length, 'webhook')}: every event delivered.`,
      data: { webhooks: hooks },
    };
  },
});

export const resendWebhookEvents = job({
  name: 'resend_webhook_events',
  title: 'Resend webhook events',
  description:
    "Delivers webhook events again now (after the receiver is fixed): given event ids, one webhook's latest " +
    'undelivered events, or (missed: true) what it missed while disabled, once each. Delivered ones are left out ' +
    'unless redeliver: true. Local engine and esign serve. Needs the go-ahead (confirm: true).',
  uses: ['listWebhookEvents', 'getWebhookEvent', 'resendWebhookEvent'],
  input: z.strictObject({
    events: z.array(id).max(50).optional(),
    webhook: id.optional().describe('Its undelivered events (at most 50)'),
    redeliver: z.boolean().optional().describe('true: delivered ones too'),
    missed: z.boolean().optional().describe('true (with webhook): what it missed while disabled'),
    confirm: z.boolean().optional().describe(CONFIRM_DESCRIPTION),
  }),
  output: z.object({
    resent: z.array(z.object({ event: z.string(), success: z.boolean(), status: z.int() })),
    already_delivered: z.array(z.string()).describe('given events delivered before: left out'),
    missed: z.object({ events: z.array(z.string()), delivered: z.int(), failed: z.int(), queued: z.int() }).optional(),
  }),
  async run(a, ctx) {
    const { service } = ctx;
    if ((a.events === undefined) === (a.webhook === undefined))
      throw new Refusal(say`Give events or webhook (one of them).`, { error: { code: 'invalid' } });
    if (a.missed) return resendMissed(a, ctx);
    let ids: string[];
    const delivered: string[] = [];
    if (a.events) {
      ids = [];
      for (const e of [...new Set(a.events)]) {
        if (!a.redeliver && (await service.getWebhookEvent(e)).success) delivered.push(e);
        else ids.push(e);
      }
    } else
      ids = (await service.listWebhookEvents({ webhook: a.webhook, success: false, per_page: 50 })).items.map(
        (e) => e.pk,
      );
    const left = delivered.length
      ? say` ${count(delivered.length, 'given event')} already delivered ${ours(delivered.length === 1 ? 'was' : 'were')} left out (redeliver: true sends them again).`
      : '';
    if (!ids.length)
      return {
        say: say`No undelivered event to resend.${ours(left)}`,
        data: { resent: [], already_delivered: delivered },
      };
    await ctx.goAhead(a, {
      action: say`deliver ${count(ids.length, 'webhook event')} again now`,
      target: { events: ids },
    });
    const resent = [];
    for (const e of ids) {
      const r = await service.resendWebhookEvent(e);
      resent.push({ event: r.pk, success: r.success, status: r.status });
    }
    const ok = resent.filter((r) => r.success).length;
    return {
      say: say`Resent ${count(resent.length, 'event')}: ${ok} delivered now.${ours(left)}`,
      data: { resent, already_delivered: delivered },
    };
  },
});

/** What a webhook missed while disabled, sent once each: on a backend that keeps the record. */
async function resendMissed(a: { webhook?: string; confirm?: boolean }, ctx: ToolContext) {
  const { service } = ctx;
  const { webhook } = a;
  if (webhook === undefined)
    throw new Refusal(say`missed: true needs webhook (the one enabled again).`, { error: { code: 'invalid' } });
  if (!service.resendMissedWebhookEvents || !service.listMissedWebhookEvents)
    throw new Refusal(say`${ours(MISSED_NOT_KEPT)}`, { error: { code: 'not_available' } });
  const w = await service.getWebhook(webhook);
  if (!w.enabled)
    throw new Refusal(
      say`Webhook ${w.id} is disabled: enable it again first (call_operation update_webhook with enabled: true), then send what it missed.`,
      { error: { code: 'conflict' } },
    );
  const [missed] = await service.listMissedWebhookEvents({ webhook: w.id });
  if (!missed)
    return {
      say: say`Webhook ${w.id} has no missed events to send: nothing was done.`,
      data: { resent: [], already_delivered: [] },
    };
  await ctx.goAhead(a, {
    action: say`send the ${ours(missedWords(missed))} to webhook ${w.id}, each once`,
    target: { webhook: w.id, name: w.name },
  });
  const r = await service.resendMissedWebhookEvents(w.id);
  const events = await Promise.all(r.events.slice(0, 50).map((e) => service.getWebhookEvent(e)));
  return {
    say: say`${ours(resendMissedOutcome(w.id, r).text)}`,
    data: {
      resent: events.map((e) => ({ event: e.pk, success: e.success, status: e.status })),
      already_delivered: [],
      missed: { events: r.events, delivered: r.delivered, failed: r.failed, queued: r.queued },
    },
  };
}
