// esign webhook update ID
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { type Action, commaList } from '../../run.js';
import { showWebhook } from './show.js';
import { WEBHOOK_EVENT_TYPES } from '../../../service/enums.js';
import { choiceListOption } from '../../flags.js';

export interface UpdateOptions {
  id: string;
  name?: string;
  url?: string;
  events?: string;
  enable?: boolean;
  disable?: boolean;
  form?: boolean;
}

export function register(webhook: Command, action: Action): void {
  webhook
    .command('update <id>')
    .description('Change a webhook')
    .option('--name <name>')
    .option('--url <url>')
    .addOption(
      choiceListOption(
        '--events <types>',
        'comma-separated event types (replaces the subscriptions)',
        WEBHOOK_EVENT_TYPES,
      ),
    )
    .option('--enable', 'enable it')
    .option('--disable', 'disable it')
    .option('--form', 'deliver form-urlencoded bodies')
    .option('--no-form', 'deliver JSON bodies')
    .action(action(async (f, o: Omit<UpdateOptions, 'id'>, id: string) => run(f, { ...o, id })));
}

export async function run(f: Factory, o: UpdateOptions): Promise<void> {
  if (o.enable && o.disable) throw new CliError('Give --enable or --disable, not both.', EXIT.USAGE);
  const body: Record<string, unknown> = {};
  if (o.name !== undefined) body.name = o.name;
  if (o.url !== undefined) body.url = o.url;
  if (o.events !== undefined) body.event_types = commaList(o.events);
  if (o.enable || o.disable) body.enabled = o.enable === true;
  if (o.form !== undefined) body.json = !o.form;
  if (!Object.keys(body).length)
    throw new CliError('Nothing to change: give at least one option (see esign webhook update --help).', EXIT.USAGE);
  await showWebhook(f, await (await f.service()).updateWebhook(o.id, body));
}
