// esign person update ID: rename, add channels, set metadata; or --replace the whole Person.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { type Action, collect, readJsonInput } from '../../run.js';
import { channels, metadata, showPerson } from './show.js';

export interface UpdateOptions {
  id: string;
  spec?: string;
  replace?: boolean;
  name?: string;
  addEmail?: string[];
  addPhone?: string[];
  metadata?: string[];
}

export function register(person: Command, action: Action): void {
  person
    .command('update <id>')
    .description('Change a Person: rename, add channels, set metadata (or replace it all with --replace)')
    .option('-f, --spec <file>', 'PersonPatchRequest JSON, or with --replace a full PersonRequest (- for stdin)')
    .option('--replace', 'replace the whole Person with the spec (channels left out are deleted)')
    .option('--name <name>')
    .option('--add-email <email>', 'add an email address (repeatable)', collect)
    .option('--add-phone <phone>', 'add a mobile phone number (repeatable)', collect)
    .option('--metadata <key=value>', 'set a metadata value, keeping the others (repeatable)', collect)
    .action(action(async (f, o: Omit<UpdateOptions, 'id'>, id: string) => run(f, { ...o, id })));
}

export async function run(f: Factory, o: UpdateOptions): Promise<void> {
  const service = await f.service();
  if (o.replace) {
    if (!o.spec || o.name || o.addEmail || o.addPhone || o.metadata)
      throw new CliError(
        '--replace takes the whole Person from a spec only: esign person update ID --replace -f person.json.',
        EXIT.USAGE,
      );
    return showPerson(f, await service.replacePerson(o.id, await readJsonInput(f.io, o.spec, '--spec')));
  }
  const body: Record<string, unknown> = o.spec ? await readJsonInput(f.io, o.spec, '--spec') : {};
  if (o.name !== undefined) body.name = o.name;
  const added = channels(o.addEmail, o.addPhone);
  if (added.length) body.channels = [...(Array.isArray(body.channels) ? body.channels : []), ...added];
  const md = metadata(o.metadata);
  // Metadata is one object: the Person's current keys are kept, the given ones set.
  if (md) body.metadata = { ...(await service.getPerson(o.id)).metadata, ...(body.metadata as object), ...md };
  if (!Object.keys(body).length)
    throw new CliError('Nothing to change: give at least one option (see esign person update --help).', EXIT.USAGE);
  await showPerson(f, await service.updatePerson(o.id, body));
}
