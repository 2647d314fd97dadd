// The reminder rules in one place (the spec's, and esign's defaults where it is silent; docs/wire.md):
// a packet is reminded at most once an hour, manually or automatically; automatic reminders go
// `reminder_offset` days after the signer's own signing request, then every `reminder_interval`
// days (both 3 when unset; an interval of 0: only one), and stop `reminder_expires` days after
// sending. The engine schedules by them; the doors tell support when the next one may go.

/** A packet is reminded at most once an hour (spec), manually or automatically. */
export const REMINDER_GAP_MS = 60 * 60 * 1000;
/** Used when a Bundle leaves reminder_offset or reminder_interval unset. */
export const DEFAULT_REMINDER_DAYS = 3;
const DAY_MS = 86400e3;

/** The Bundle's members that shape its automatic reminders. */
export interface ReminderSettings {
  reminder_offset?: number | null;
  reminder_interval?: number | null;
  reminder_expires?: number | null;
}

/**
 * When automatic reminder `k` (from 0) of a signer asked at `askedMs` is scheduled, or null when
 * there is no such reminder (an interval of 0 has only the first).
 */
export function scheduledReminderMs(s: ReminderSettings, askedMs: number, k: number): number | null {
  const offset = s.reminder_offset ?? DEFAULT_REMINDER_DAYS;
  const interval = s.reminder_interval ?? DEFAULT_REMINDER_DAYS;
  if (k > 0 && interval === 0) return null;
  return askedMs + (offset + k * interval) * DAY_MS;
}

/** When automatic reminders stop (`reminder_expires` days after sending), or null when they do not. */
export function remindersStopMs(s: ReminderSettings, sentMs: number | null): number | null {
  return s.reminder_expires !== null && s.reminder_expires !== undefined && sentMs !== null
    ? sentMs + s.reminder_expires * DAY_MS
    : null;
}

/** The earliest a reminder may go after one at `lastMs` (the once-an-hour rule). */
export const nextAllowedMs = (lastMs: number): number => lastMs + REMINDER_GAP_MS;

/**
 * The words the engine adds to a signer's "details updated" event when the signer was moved off
 * embedded signing: such a signer gets no automatic reminder (spec), only ones sent by hand. Any door
 * reads it from the audit events (the API's Packet does not say how it was created).
 */
export const MOVED_OFF_EMBED = 'moved from embedded signing';

/** Whether packet `packetId` was moved off embedded signing, by its audit events. */
export const movedOffEmbed = (
  events: readonly { kind: string; packet_id?: string | null; description: string }[],
  packetId: string,
): boolean =>
  events.some((e) => e.kind === 'pu' && e.packet_id === packetId && e.description.includes(MOVED_OFF_EMBED));
