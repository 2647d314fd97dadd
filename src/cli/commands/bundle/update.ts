// esign bundle update SLUG: expiry, reminders, cc, owner, team, brand of a draft or sent Bundle.
import type { Command } from '@commander-js/extra-typings';
import { isUpdatable } from '../../../service/states.js';
import { applySettingsFlags } from './settingsFlags.js';
import { CliError, EXIT, rethrowAsStateConflict } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { type Action, collect, readJsonInput } from '../../run.js';
import { showBundle } from './show.js';

export interface UpdateOptions {
  slug: string;
  spec?: string;
  expires?: string;
  cc?: string[];
  ccSender?: boolean;
  sendReminders?: boolean;
  reminderOffset?: string;
  reminderInterval?: string;
  reminderExpires?: string;
  owner?: string;
  team?: string;
  signingBrand?: string;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('update <slug>')
    .description('Change a draft or sent Bundle (expiry, reminders, cc, owner, team, brand)')
    .option('-f, --spec <file>', 'BundlePatchRequest JSON (- for stdin)')
    .option('--expires <date>', 'YYYY-MM-DD or an ISO date-time, in the future')
    .option('--cc <email>', 'replace the cc list (repeatable)', collect)
    .option('--cc-sender', 'copy the sender on completion')
    .option('--no-cc-sender')
    .option('--send-reminders', 'send reminders')
    .option('--no-send-reminders')
    .option('--reminder-offset <days>')
    .option('--reminder-interval <days>')
    .option('--reminder-expires <days>')
    .option('--owner <uuid|none>')
    .option('--team <uuid|none>')
    .option('--signing-brand <uuid|none>')
    .action(action(async (f, o: Omit<UpdateOptions, 'slug'>, slug: string) => run(f, { ...o, slug })));
}

const nullable = (v: string) => (v === 'none' ? null : v);

export async function run(f: Factory, o: UpdateOptions): Promise<void> {
  const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
  if (o.expires !== undefined) body.expires = o.expires;
  if (o.cc !== undefined) body.cc_emails = o.cc;
  applySettingsFlags(o, body);
  if (o.owner !== undefined) body.owner = nullable(o.owner);
  if (o.team !== undefined) body.team = nullable(o.team);
  if (o.signingBrand !== undefined) body.signing_brand = nullable(o.signingBrand);
  if (!Object.keys(body).length)
    throw new CliError('Nothing to change: give at least one option (see esign bundle update --help).', EXIT.USAGE);
  const service = await f.service();
  // Complete, cancelled, expired: the Bundle's state refuses any change (a 400 on the wire), exit 7.
  const b = await service
    .updateBundle(o.slug, body)
    .catch((e: unknown) =>
      rethrowAsStateConflict(e, async () => (await service.getBundle(o.slug)).status, isUpdatable),
    );
  await showBundle(f, b);
}
