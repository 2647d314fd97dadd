// esign bundle update SLUG: expiry, reminders, cc, owner, team, brand of a draft or sent Bundle.
import { CliError, EXIT, rethrowAsStateConflict } from '../../exitCodes.js';
import { SETTINGS_FLAGS, checkFlagMembers, givenFlags } from '../../flagMembers.js';
import { collect, readJsonInput } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { applySettingsFlags } from './settingsFlags.js';
import { showBundle } from './shared/display.js';

const nullable = (v: string) => (v === 'none' ? null : v);

/** The flags that set a member of the PATCH, checked by its schema before anything is sent. */
const UPDATE_FLAGS = [
  ...SETTINGS_FLAGS,
  ['owner', 'owner', '--owner'],
  ['team', 'team', '--team'],
  ['signingBrand', 'signing_brand', '--signing-brand'],
] as const;

export const update = defineVerb(
  'update <slug>',
  'Change a draft or sent Bundle (expiry, reminders, cc, owner, team, brand)',
  {
    flags: (c) =>
      c
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
        .option('--signing-brand <uuid|none>'),
    examples: [
      'esign bundle update 9KwSrpJdyp --expires 2025-12-31',
      'esign bundle update 9KwSrpJdyp --send-reminders --reminder-interval 3',
    ],
    async run(f, o, slug) {
      const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
      if (o.expires !== undefined) body.expires = o.expires;
      if (o.cc !== undefined) body.cc_emails = o.cc;
      applySettingsFlags(o, body);
      if (o.owner !== undefined) body.owner = nullable(o.owner);
      if (o.team !== undefined) body.team = nullable(o.team);
      if (o.signingBrand !== undefined) body.signing_brand = nullable(o.signingBrand);
      if (!Object.keys(body).length)
        throw new CliError('Nothing to change: give at least one option (see esign bundle update --help).', EXIT.USAGE);
      await checkFlagMembers('BundlePatchRequest', body, givenFlags(o, UPDATE_FLAGS));
      const service = await f.service();
      // Complete, cancelled, expired: the Bundle's state refuses any change (a 400 on the wire), exit 7.
      const b = await service
        .updateBundle(slug, body)
        .catch((e: unknown) =>
          rethrowAsStateConflict(e, 'updateBundle', async () => (await service.getBundle(slug)).status),
        );
      await showBundle(f, b);
    },
  },
);
