// esign packet update ID: a signer's details, delivery, authentication and notifications.
import type { Command } from 'commander';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { type Action, readJsonInput } from '../../run.js';
import { showPacket } from './show.js';
import { choiceOption } from '../../flags.js';

const BOOLEAN_FLAGS = [
  'authSms',
  'authSelfie',
  'authId',
  'suppressAll',
  'suppressSigning',
  'suppressReminder',
  'suppressDocsReady',
] as const;
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export type UpdateOptions = {
  id: string;
  spec?: string;
  name?: string;
  email?: string;
  phone?: string;
  deliverVia?: string;
  redirect?: string;
} & Partial<Record<(typeof BOOLEAN_FLAGS)[number], boolean>>;

export function register(packet: Command, action: Action): void {
  const update = packet
    .command('update <id>')
    .description("Change a signer's details or delivery")
    .option('-f, --spec <file>', 'packet PATCH JSON (- for stdin)')
    .option('--name <name>')
    .option('--email <email>')
    .option('--phone <phone>')
    .addOption(choiceOption('--deliver-via <channel>', 'email or phone', ['email', 'phone']))
    .option('--redirect <url>', 'signing_complete_redirect (Signing Brands feature)');
  for (const f of BOOLEAN_FLAGS) {
    const flag = snake(f).replace(/_/g, '-');
    update.option(`--${flag}`).option(`--no-${flag}`);
  }
  update.action(action(async (f, o: Omit<UpdateOptions, 'id'>, id: string) => run(f, { ...o, id })));
}

export async function run(f: Factory, o: UpdateOptions): Promise<void> {
  const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
  for (const k of ['name', 'email', 'phone'] as const) if (o[k] !== undefined) body[k] = o[k];
  if (o.deliverVia !== undefined) body.deliver_via = o.deliverVia;
  if (o.redirect !== undefined) body.signing_complete_redirect = o.redirect;
  for (const flag of BOOLEAN_FLAGS) if (o[flag] !== undefined) body[snake(flag)] = o[flag];
  if (!Object.keys(body).length)
    throw new CliError('Nothing to change: give at least one option (see esign packet update --help).', EXIT.USAGE);
  await showPacket(f, await (await f.service()).updatePacket(o.id, body));
}
