// The account-feature gates of a create, each written once: the engine applies them with its own
// account; a client checking a create before sending, with the account's facts read once
// (src/app/createCheck.ts). Each answers why the member is refused, or undefined.
import type { AccountFeature } from './enums.js';
import type { FieldErrors } from './errors.js';

export type Has = (feature: AccountFeature) => boolean;

/** The members the Reminders feature gates. */
export const REMINDER_MEMBERS = ['send_reminders', 'reminder_offset', 'reminder_interval', 'reminder_expires'] as const;

export const remindersGate = (member: string, has: Has): string | undefined =>
  has('reminders') ? undefined : `${member} requires the Reminders account feature.`;

export const teamsGate = (has: Has): string | undefined =>
  has('teams') ? undefined : 'Assigning a team requires the Teams account feature.';

const regexGate = (has: Has): string | undefined =>
  has('regex_validation') ? undefined : 'v_regex requires the field regex validation account feature.';

export const officeUploadGate = (filename: string, has: Has): string | undefined =>
  has('office_upload')
    ? undefined
    : `Uploading office documents (${filename}) requires the office-upload account feature.`;

export type RegexCheck = (pattern: string, field: string, errs: FieldErrors) => void;

/**
 * The `v_regex` gate: the field regex validation feature, and an expression RE2 compiles (the
 * signing page matches with RE2). re2js is loaded only when the feature is on and some field has one.
 */
export async function regexCheck(has: Has, anyRegex: boolean): Promise<RegexCheck> {
  // The check is only called for a v_regex, so without one the feature is not read.
  const gate = anyRegex ? regexGate(has) : undefined;
  const re2 = anyRegex && !gate ? (await import('re2js')).RE2JS : undefined;
  return (pattern, field, errs) => {
    if (gate) return errs.add(field, gate);
    try {
      re2!.compile(pattern);
    } catch (e) {
      errs.add(field, `Not a valid RE2 expression: ${(e as Error).message}`);
    }
  };
}
