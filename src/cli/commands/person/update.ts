// esign person update ID: rename, add channels, set metadata; or --replace the whole Person.
import { CliError, EXIT } from '../../exitCodes.js';
import { collect, readJsonInput } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { channelFlags, personBody } from './shared/body.js';
import { showPerson } from './shared/display.js';

export const update = defineVerb(
  'update <id>',
  'Change a Person: rename, add channels, set metadata (or replace it all with --replace)',
  {
    flags: (c) =>
      channelFlags(
        c
          .option('-f, --spec <file>', 'PersonPatchRequest JSON, or with --replace a full PersonRequest (- for stdin)')
          .option('--replace', 'replace the whole Person with the spec (channels left out are deleted)')
          .option('--name <name>'),
        'add-',
      ).option('--metadata <key=value>', 'set a metadata value, keeping the others (repeatable)', collect),
    examples: [
      'esign person update 2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d --add-email ada@work.example',
      'esign person update 2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d --name "Ada King"',
    ],
    async run(f, o, id) {
      const service = await f.service();
      if (o.replace) {
        if (!o.spec || o.name || o.addEmail || o.addPhone || o.metadata)
          throw new CliError(
            '--replace takes the whole Person from a spec only: esign person update ID --replace -f person.json.',
            EXIT.USAGE,
          );
        return showPerson(f, await service.replacePerson(id, await readJsonInput(f.io, o.spec, '--spec')));
      }
      const body = await personBody(f, o, o.addEmail, o.addPhone, '--add-phone');
      // Metadata is one object: the Person's current keys are kept, the given ones set.
      if (o.metadata?.length)
        body.metadata = { ...(await service.getPerson(id)).metadata, ...(body.metadata as object) };
      if (!Object.keys(body).length)
        throw new CliError('Nothing to change: give at least one option (see esign person update --help).', EXIT.USAGE);
      await showPerson(f, await service.updatePerson(id, body));
    },
  },
);
