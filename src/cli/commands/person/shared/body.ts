// A Person body from a spec file and the --name, email, phone and --metadata flags.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Factory } from '../../../factory.js';
import { CliError, EXIT } from '../../../exitCodes.js';
import { collect, keyValues, readJsonInput } from '../../../run.js';
import { loadPhoneRule } from '../../../../lazyImport.js';

/** The repeatable channel flags: `--email` and `--phone` of a new Person, `--add-email` and `--add-phone`. */
export function channelFlags<A extends unknown[], O extends OptionValues, const P extends '' | 'add-'>(
  cmd: Command<A, O, OptionValues>,
  prefix: P,
) {
  const add = prefix ? 'add ' : '';
  return cmd
    .option(`--${prefix}email <email>`, `${add}an email address (repeatable)`, collect)
    .option(`--${prefix}phone <phone>`, `${add}a mobile phone number (repeatable)`, collect);
}

/**
 * The spec (or `{}`) with the flags laid over it: new channels (no id) appended to the spec's,
 * metadata values set over the spec's.
 */
export async function personBody(
  f: Factory,
  o: { spec?: string; name?: string; metadata?: string[] },
  email: string[] = [],
  phone: string[] = [],
  phoneFlag = '--phone',
): Promise<Record<string, unknown>> {
  const { PHONE_RULE, isPhoneNumber } = await loadPhoneRule();
  const bad = phone.find((p) => !isPhoneNumber(p));
  if (bad !== undefined) throw new CliError(`${phoneFlag} ${JSON.stringify(bad)}: ${PHONE_RULE}`, EXIT.USAGE);
  const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
  if (o.name !== undefined) body.name = o.name;
  const added = [...email.map((e) => ({ kind: 'em', email: e })), ...phone.map((p) => ({ kind: 'mp', phone: p }))];
  if (added.length) body.channels = [...(Array.isArray(body.channels) ? body.channels : []), ...added];
  if (o.metadata?.length)
    body.metadata = { ...(body.metadata as object), ...Object.fromEntries(keyValues(o.metadata, '--metadata')) };
  return body;
}
