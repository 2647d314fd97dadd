// The events a webhook missed while it was disabled, in the words every door uses: how many and
// when, how to send them, what sending them did, and why a remote backend cannot.
import type { MissedResend, MissedWebhookEvents } from '../service/types.js';

/** Why a backend without the record (any remote one) cannot say or send what a webhook missed. */
export const MISSED_NOT_KEPT =
  'The API keeps no record of the events a disabled webhook missed, so this backend cannot send them: ' +
  "esign's local engine keeps one. Run it where the engine's data directory is (without ESIGN_BASE_URL), " +
  'or use the support console of the esign serve that holds it.';

const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** "3 events missed while disabled (from <first> to <last>)"; `when` puts a time in words. */
export function missedWords(m: MissedWebhookEvents, when: (iso: string) => string = (iso) => iso): string {
  const span =
    m.first_at && m.last_at
      ? m.first_at === m.last_at
        ? ` (${when(m.first_at)})`
        : ` (from ${when(m.first_at)} to ${when(m.last_at)})`
      : '';
  return `${plural(m.count, 'event')} missed while disabled${span}${droppedWords(m)}`;
}

/** "; 12 older ones were dropped (at most 10,000 are kept)", or nothing. */
const droppedWords = (m: Pick<MissedWebhookEvents, 'dropped' | 'kept_at_most'>) =>
  m.dropped
    ? `; ${m.dropped.toLocaleString('en')} older ${m.dropped === 1 ? 'one was' : 'ones were'} dropped (at most ${m.kept_at_most.toLocaleString('en')} are kept per webhook)`
    : '';

/** How to send them from the terminal: after enabling it again, when it is still disabled. */
export const resendMissedHint = (webhook: { id: string; enabled: boolean }): string =>
  webhook.enabled
    ? `send them: esign webhook resend-missed ${webhook.id}`
    : `enable it again (esign webhook update ${webhook.id} --enable), then send them: esign webhook resend-missed ${webhook.id}`;

/** What a send of missed events did, in words: "Sent the 3 events crm missed: 2 delivered, 1 failed ...". */
export function resendMissedOutcome(name: string, r: MissedResend, about = ''): { ok: boolean; text: string } {
  const n = r.events.length;
  const lost = r.dropped
    ? ` ${plural(r.dropped, 'older missed event')} had been dropped (a bounded number is kept) and could not be sent.`
    : '';
  const what = about ? ` ${about}` : '';
  if (!n) return { ok: true, text: `Webhook ${name} has no missed events${what} to send: nothing was done.${lost}` };
  const parts = [`${r.delivered} delivered`];
  if (r.failed) parts.push(`${r.failed} failed their first attempt and are retried on the schedule`);
  if (r.queued) parts.push(`${r.queued} queued (esign serve or esign local run-due delivers them)`);
  return {
    ok: r.failed === 0,
    text: `Sent the ${plural(n, 'event')} webhook ${name} missed while disabled${what}, each once: ${parts.join(', ')}.${lost}`,
  };
}
