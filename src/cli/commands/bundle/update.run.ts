// The body of esign bundle update (declared in update.ts).
import { CliError, EXIT, rethrowAsStateConflict } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { SETTINGS_FLAGS, checkFlagMembers, givenFlags } from '../../flagMembers.js';
import { readJsonInput } from '../../run.js';
import type { OptionsOf } from '../../verb.js';
import { applySettingsFlags } from './settingsFlags.js';
import { showBundle } from './shared/display.js';
import type { update } from './update.js';

const nullable = (v: string) => (v === 'none' ? null : v);

/** The flags that set a member of the PATCH, checked by its schema before anything is sent. */
const UPDATE_FLAGS = [
  ...SETTINGS_FLAGS,
  ['owner', 'owner', '--owner'],
  ['team', 'team', '--team'],
  ['signingBrand', 'signing_brand', '--signing-brand'],
] as const;

export async function run(f: Factory, o: OptionsOf<typeof update>, slug: string): Promise<void> {
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
}
