// The Bundle settings flags that bundle create and bundle update share, as members of the request body.
import { intArg } from '../../run.js';
import type { OptionsOf } from '../../verb.js';
import type { update } from './update.js';

/** The settings flags as `bundle update` declares them (create's are the same flags, without the --no- ones). */
export type SettingsFlags = Pick<
  OptionsOf<typeof update>,
  'ccSender' | 'sendReminders' | 'reminderOffset' | 'reminderInterval' | 'reminderExpires'
>;

/** Sets the members the settings flags give (a flag not given leaves its member as it is). */
export function applySettingsFlags(o: SettingsFlags, body: Record<string, unknown>): void {
  if (o.ccSender !== undefined) body.cc_sender = o.ccSender;
  if (o.sendReminders !== undefined) body.send_reminders = o.sendReminders;
  for (const [flag, key] of [
    ['reminderOffset', 'reminder_offset'],
    ['reminderInterval', 'reminder_interval'],
    ['reminderExpires', 'reminder_expires'],
  ] as const)
    if (o[flag] !== undefined) body[key] = intArg(o[flag], `--${key.replace('_', '-')}`);
}
