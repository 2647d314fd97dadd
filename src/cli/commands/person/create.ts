// esign person create
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { type Action, collect, readJsonInput } from '../../run.js';
import { channels, metadata, showPerson } from './show.js';

export interface CreateOptions {
  spec?: string;
  name?: string;
  email?: string[];
  phone?: string[];
  metadata?: string[];
}

export function register(person: Command, action: Action): void {
  person
    .command('create')
    .description('Create a Person')
    .option('-f, --spec <file>', 'PersonRequest JSON (- for stdin)')
    .option('--name <name>', 'full name (required unless in the spec)')
    .option('--email <email>', 'an email address (repeatable)', collect)
    .option('--phone <phone>', 'a mobile phone number (repeatable)', collect)
    .option('--metadata <key=value>', 'a metadata value (repeatable)', collect)
    .action(action(run));
}

export async function run(f: Factory, o: CreateOptions): Promise<void> {
  const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
  if (o.name !== undefined) body.name = o.name;
  const added = channels(o.email, o.phone);
  if (added.length) body.channels = [...(Array.isArray(body.channels) ? body.channels : []), ...added];
  const md = metadata(o.metadata);
  if (md) body.metadata = { ...(body.metadata as object), ...md };
  if (body.name === undefined)
    throw new CliError('A Person needs a name: give --name, or a spec with -f spec.json.', EXIT.USAGE);
  await showPerson(f, await (await f.service()).createPerson(body));
}
