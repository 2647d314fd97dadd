// esign packet update ID: a signer's details, delivery, authentication and notifications.
import { CliError, EXIT } from '../../exitCodes.js';
import { choiceOption, toggled, toggles } from '../../flags.js';
import { checkFlagMembers, givenFlags } from '../../flagMembers.js';
import { readJsonInput } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { showPacket } from './shared/display.js';

/** Each a pair of flags, `--auth-sms` and `--no-auth-sms`, for a boolean of the packet. */
const BOOLEAN_FIELDS = [
  'auth_sms',
  'auth_selfie',
  'auth_id',
  'suppress_all',
  'suppress_signing',
  'suppress_reminder',
  'suppress_docs_ready',
] as const;

/** The flags that set a member of the PATCH, checked by its schema before anything is sent. */
const PACKET_FLAGS = [
  ['name', 'name', '--name'],
  ['email', 'email', '--email'],
  ['phone', 'phone', '--phone'],
  ['redirect', 'signing_complete_redirect', '--redirect'],
] as const;

export const update = defineVerb('update <id>', "Change a signer's details or delivery", {
  flags: (c) =>
    toggles(
      c
        .option('-f, --spec <file>', 'packet PATCH JSON (- for stdin)')
        .option('--name <name>')
        .option('--email <email>')
        .option('--phone <phone>')
        .addOption(choiceOption('--deliver-via <channel>', 'email or phone', ['email', 'phone']))
        .option('--redirect <url>', 'signing_complete_redirect (Signing Brands feature)'),
      BOOLEAN_FIELDS,
    ),
  examples: [
    'esign packet update Rw3pLk8sQe --email ada@example.org',
    'esign packet update Rw3pLk8sQe --deliver-via phone --phone +15551234567',
  ],
  async run(f, o, id) {
    const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
    for (const k of ['name', 'email', 'phone'] as const) if (o[k] !== undefined) body[k] = o[k];
    if (o.deliverVia !== undefined) body.deliver_via = o.deliverVia;
    if (o.redirect !== undefined) body.signing_complete_redirect = o.redirect;
    Object.assign(body, toggled(o, BOOLEAN_FIELDS));
    if (!Object.keys(body).length)
      throw new CliError('Nothing to change: give at least one option (see esign packet update --help).', EXIT.USAGE);
    await checkFlagMembers('PacketPatchRequest', body, givenFlags(o, PACKET_FLAGS));
    await showPacket(f, await (await f.service()).updatePacket(id, body));
  },
});
