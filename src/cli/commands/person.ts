// esign person list|create|get|update|delete (Persons: contacts with email and phone channels)
import type { Command } from 'commander';
import type { Person } from '../../service/types.js';
import type { Factory } from '../factory.js';
import { CliError, EXIT } from '../exitCodes.js';
import { keyValueItems, printDeleted, printList, printObject } from '../output.js';
import { type PageFlags, addPageOptions, fetchPages } from '../paging.js';
import { type Action, collect, confirm, keyValues, readJsonInput } from '../run.js';

const emails = (p: Person) => p.channels.filter((c) => c.kind === 'em').map((c) => c.email ?? '');
const phones = (p: Person) => p.channels.filter((c) => c.kind === 'mp').map((c) => c.phone ?? '');

export async function showPerson(ctx: Factory, p: Person): Promise<void> {
  await printObject(ctx, p, [
    ['id', p.id], ['name', p.name], ['is_user', p.is_user], ['emails', emails(p)], ['phones', phones(p)],
    ['metadata', keyValueItems(p.metadata)],
  ], p.id);
}

/** Contact channels from --email / --phone flags (new channels: no id). */
const channels = (email: string[] = [], phone: string[] = []) => [
  ...email.map((e) => ({ kind: 'em', email: e })),
  ...phone.map((p) => ({ kind: 'mp', phone: p })),
];

const metadata = (list: string[] | undefined) => (list?.length ? Object.fromEntries(keyValues(list, '--metadata')) : undefined);

export function registerPerson(program: Command, action: Action): void {
  const person = program.command('person').description('Persons: saved signers with their email addresses and phones');

  addPageOptions(person.command('list').description('List Persons')
    .option('--search <text>', 'name, email or phone contains')
    .option('--email <email>', 'has this email address')
    .option('--phone <phone>', 'has this phone number'))
    .action(action(async (ctx, o: PageFlags & { search?: string; email?: string; phone?: string }) => {
      const service = await ctx.service();
      const items = await fetchPages(ctx, (q) => service.listPersons({ ...q, search: o.search, email: o.email, phone: o.phone }), o);
      await printList(ctx, items, [
        { header: 'ID', value: (p) => p.id }, { header: 'NAME', value: (p) => p.name },
        { header: 'EMAILS', value: emails }, { header: 'PHONES', value: phones }, { header: 'USER', value: (p) => p.is_user },
      ], (p) => p.id);
    }));

  person.command('create').description('Create a Person')
    .option('-f, --spec <file>', 'PersonRequest JSON (- for stdin)')
    .option('--name <name>', 'full name (required unless in the spec)')
    .option('--email <email>', 'an email address (repeatable)', collect)
    .option('--phone <phone>', 'a mobile phone number (repeatable)', collect)
    .option('--metadata <key=value>', 'a metadata value (repeatable)', collect)
    .action(action(async (ctx, o: { spec?: string; name?: string; email?: string[]; phone?: string[]; metadata?: string[] }) => {
      const body: Record<string, unknown> = o.spec ? await readJsonInput(ctx.io, o.spec, '--spec') : {};
      if (o.name !== undefined) body.name = o.name;
      const added = channels(o.email, o.phone);
      if (added.length) body.channels = [...(Array.isArray(body.channels) ? body.channels : []), ...added];
      const md = metadata(o.metadata);
      if (md) body.metadata = { ...(body.metadata as object), ...md };
      if (body.name === undefined) throw new CliError('A Person needs a name: give --name, or a spec with -f spec.json.', EXIT.USAGE);
      await showPerson(ctx, await (await ctx.service()).createPerson(body));
    }));

  person.command('get <id>').description('Show a Person')
    .action(action(async (ctx, _o, id: string) => showPerson(ctx, await (await ctx.service()).getPerson(id))));

  person.command('update <id>').description('Change a Person: rename, add channels, set metadata (or replace it all with --replace)')
    .option('-f, --spec <file>', 'PersonPatchRequest JSON, or with --replace a full PersonRequest (- for stdin)')
    .option('--replace', 'replace the whole Person with the spec (channels left out are deleted)')
    .option('--name <name>')
    .option('--add-email <email>', 'add an email address (repeatable)', collect)
    .option('--add-phone <phone>', 'add a mobile phone number (repeatable)', collect)
    .option('--metadata <key=value>', 'set a metadata value, keeping the others (repeatable)', collect)
    .action(action(async (ctx, o: { spec?: string; replace?: boolean; name?: string; addEmail?: string[]; addPhone?: string[]; metadata?: string[] }, id: string) => {
      const service = await ctx.service();
      if (o.replace) {
        if (!o.spec || o.name || o.addEmail || o.addPhone || o.metadata)
          throw new CliError('--replace takes the whole Person from a spec only: esign person update ID --replace -f person.json.', EXIT.USAGE);
        return showPerson(ctx, await service.replacePerson(id, await readJsonInput(ctx.io, o.spec, '--spec')));
      }
      const body: Record<string, unknown> = o.spec ? await readJsonInput(ctx.io, o.spec, '--spec') : {};
      if (o.name !== undefined) body.name = o.name;
      const added = channels(o.addEmail, o.addPhone);
      if (added.length) body.channels = [...(Array.isArray(body.channels) ? body.channels : []), ...added];
      const md = metadata(o.metadata);
      // Metadata is one object: the Person's current keys are kept, the given ones set.
      if (md) body.metadata = { ...(await service.getPerson(id)).metadata, ...(body.metadata as object), ...md };
      if (!Object.keys(body).length) throw new CliError('Nothing to change: give at least one option (see esign person update --help).', EXIT.USAGE);
      await showPerson(ctx, await service.updatePerson(id, body));
    }));

  person.command('delete <id>').description('Delete a Person')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (ctx, o: { yes?: boolean }, id: string) => {
      await confirm(ctx, `Delete person ${id}?`, o.yes);
      await (await ctx.service()).deletePerson(id);
      printDeleted(ctx, 'person', id);
    }));
}
