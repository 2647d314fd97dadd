// Flags that set members of a request are checked by the request's own schema before anything is
// sent: a bad value is a usage error naming the flag (exit 2), never the backend's 400 (exit 3).
import type { ZodType } from 'zod';
import { loadSchemas, loadZod } from '../lazyImport.js';
import { ApiError } from '../domain/errors.js';
import { CliError, EXIT } from './exitCodes.js';

type SchemaName = 'BundleRequest' | 'BundlePatchRequest' | 'PacketPatchRequest' | 'ReassignRequest';

/** The members whose flags were given: `table` rows are [option key, member, flag]. */
export function givenFlags(o: object, table: readonly (readonly [string, string, string])[]): Record<string, string> {
  const given = o as Record<string, unknown>;
  return Object.fromEntries(
    table.filter(([key]) => given[key] !== undefined).map(([, member, flag]) => [member, flag]),
  );
}

/** The settings flags `bundle create` and `bundle update` share. */
export const SETTINGS_FLAGS = [
  ['expires', 'expires', '--expires'],
  ['cc', 'cc_emails', '--cc'],
  ['reminderOffset', 'reminder_offset', '--reminder-offset'],
  ['reminderInterval', 'reminder_interval', '--reminder-interval'],
  ['reminderExpires', 'reminder_expires', '--reminder-expires'],
] as const;

/** Each member of `body` a flag set (`flags`: member -> the flag's name), checked alone by `schema`'s rule for it. */
export async function checkFlagMembers(
  schema: SchemaName,
  body: Record<string, unknown>,
  flags: Record<string, string>,
): Promise<void> {
  const [S, { z }] = await Promise.all([loadSchemas(), loadZod()]);
  const shape: Record<string, ZodType> = S[schema].shape;
  for (const [member, flag] of Object.entries(flags)) {
    if (body[member] === undefined) continue;
    try {
      S.parseOr400(z.object({ [member]: shape[member] }), { [member]: body[member] });
    } catch (e) {
      if (!(e instanceof ApiError) || !e.errors.length) throw e;
      const { field, message } = e.errors[0];
      const item = /\[(\d+)\]$/.exec(field);
      const value = item ? (body[member] as unknown[])[Number(item[1])] : body[member];
      throw new CliError(`${flag} ${JSON.stringify(value)}: ${message}`, EXIT.USAGE);
    }
  }
}
