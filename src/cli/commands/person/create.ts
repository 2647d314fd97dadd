// esign person create
import { CliError, EXIT } from '../../exitCodes.js';
import { collect } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { channelFlags, personBody } from './shared/body.js';
import { showPerson } from './shared/display.js';

export const create = defineVerb('create', 'Create a Person', {
  flags: (c) =>
    channelFlags(
      c
        .option('-f, --spec <file>', 'PersonRequest JSON (- for stdin)')
        .option('--name <name>', 'full name (required unless in the spec)'),
      '',
    ).option('--metadata <key=value>', 'a metadata value (repeatable)', collect),
  examples: [
    'esign person create --name "Ada Lovelace" --email ada@example.com',
    'esign person create --name "Bob" --phone +15551234567 --metadata team=sales',
  ],
  async run(f, o) {
    const body = await personBody(f, o, o.email, o.phone);
    if (body.name === undefined)
      throw new CliError('A Person needs a name: give --name, or a spec with -f spec.json.', EXIT.USAGE);
    await showPerson(f, await (await f.service()).createPerson(body));
  },
});
