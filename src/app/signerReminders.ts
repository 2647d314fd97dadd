// A signer's reminders for support, from what any backend tells (the Bundle, its audit events) and
// the reminder rules (domain/reminderRules.ts): how many went and when, when one may be sent by
// hand (or why it cannot), and when the next automatic one is due.
import {
  DEFAULT_REMINDER_DAYS,
  movedOffEmbed,
  nextAllowedMs,
  remindersStopMs,
  scheduledReminderMs,
} from '../domain/reminderRules.js';
import { bundleStateWord, isInProgress, isPacketDone, signerStateWord } from '../domain/states.js';
import type { Bundle, BundleEvent, Packet } from '../service/types.js';

export interface SignerReminders {
  /** Reminders sent (by hand or automatically), and when the last went. */
  sent: number;
  last_at: string | null;
  /** When one may be sent by hand (now or later); null when it cannot be, `why_not` saying why. */
  by_hand_at: string | null;
  why_not: string | null;
  /** When the next automatic reminder is due by the rules; null when none is (`automatic` says why). */
  automatic_at: string | null;
  /** The automatic reminders in words: "every 3 d from 3 d after the request, until 10 d after sending", "off". */
  automatic: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const days = (n: number) => `${n} d`;

/** Why a reminder cannot be sent by hand now or later, or null when it can (the remind operation's refusals). */
function whyNot(b: Bundle, p: Packet, itsTurn: boolean): string | null {
  if (isPacketDone(p.status)) return `the signer is ${signerStateWord(p.status, b.status)}`;
  if (!isInProgress(b.status)) return `the Bundle is ${bundleStateWord(b.status)}`;
  if (!itsTurn) return 'not their turn yet (the Bundle is signed in order)';
  if (p.deliver_via === 'embed') return 'they sign embedded: there is no address to remind';
  if (p.suppress_all) return 'all messages to this signer are suppressed';
  return null;
}

/** The automatic reminders' schedule in words, from the Bundle's settings (the rules' defaults where unset). */
export function scheduleWords(b: Bundle): string {
  const offset = b.reminder_offset ?? DEFAULT_REMINDER_DAYS;
  const interval = b.reminder_interval ?? DEFAULT_REMINDER_DAYS;
  const first = `${days(offset)} after the signing request`;
  const then = interval === 0 ? `once, ${first}` : `${first}, then every ${days(interval)}`;
  return b.reminder_expires === null ? then : `${then}, until ${days(b.reminder_expires)} after sending`;
}

export function signerReminders(
  b: Bundle,
  p: Packet,
  events: readonly BundleEvent[],
  itsTurn: boolean,
  nowMs: number,
): SignerReminders {
  const mine = events.filter((e) => e.packet_id === p.id);
  const reminders = mine.filter((e) => e.kind === 'pr');
  const last = reminders.at(-1)?.timestamp ?? null;
  const lastMs = last ? Date.parse(last) : null;
  const cannot = whyNot(b, p, itsTurn);
  const byHand = cannot ? null : iso(lastMs === null ? nowMs : Math.max(nowMs, nextAllowedMs(lastMs)));

  const off = (why: string) => ({ automatic_at: null, automatic: why });
  const auto = (() => {
    if (!b.send_reminders) return off('off for this Bundle');
    if (p.deliver_via === 'embed') return off('none: they sign embedded');
    if (movedOffEmbed(events, p.id)) return off('none: moved from embedded signing, only reminders sent by hand go');
    if (p.suppress_all || p.suppress_reminder) return off('none: suppressed for this signer');
    const schedule = scheduleWords(b);
    if (cannot) return off(schedule);
    const asked = mine.filter((e) => e.kind === 'ns').at(-1)?.timestamp ?? b.sent;
    if (!asked) return off(schedule);
    const askedMs = Date.parse(asked);
    // The next scheduled one not yet passed by a reminder (a reminder at or after it was it, or took its place).
    let next: number | null = null;
    for (let k = 0; k < 1000; k++) {
      const at = scheduledReminderMs(b, askedMs, k);
      if (at === null) break;
      if (lastMs === null || at > lastMs) {
        next = at;
        break;
      }
    }
    if (next === null) return off(`${schedule}; none left`);
    const due = lastMs === null ? next : Math.max(next, nextAllowedMs(lastMs));
    const stop = remindersStopMs(b, b.sent ? Date.parse(b.sent) : null);
    if (stop !== null && due > stop) return off(`${schedule}; none left before they stop`);
    return { automatic_at: iso(due), automatic: schedule };
  })();
  return { sent: reminders.length, last_at: last, by_hand_at: byHand, why_not: cannot, ...auto };
}

/** "2 sent, the last 3h ago; one can be sent now; next automatic Nov 24 10:00 (...)" with `when` for times. */
export function remindersWords(r: SignerReminders, nowMs: number, when: (iso: string) => string): string {
  const sent = r.sent ? `${r.sent} sent, the last ${when(r.last_at!)}` : 'none sent';
  if (!r.by_hand_at) return `reminders: ${sent}; none can go: ${r.why_not}`;
  const byHand =
    Date.parse(r.by_hand_at) <= nowMs
      ? 'one can be sent now'
      : `the next can be sent after ${when(r.by_hand_at)} (once an hour)`;
  const automatic = r.automatic_at
    ? `next automatic ${Date.parse(r.automatic_at) <= nowMs ? 'due now' : when(r.automatic_at)} (${r.automatic})`
    : `automatic: ${r.automatic}`;
  return `reminders: ${sent}; ${byHand}; ${automatic}`;
}
