// esign template metadata set|unset|clear: a template's metadata (its only writable member).
import { confirm } from '../../run.js';
import { type Parent, defineVerb } from '../../verb.js';
import { showTemplate } from './shared/display.js';
import { metadataFlags } from './shared/metadata.js';

export const set = defineVerb({
  command: (metadata: Parent) =>
    metadata.command('set <id> <pairs...>').description('Set or change keys: KEY=VALUE ... (other keys are kept)'),
  examples: [
    'esign template metadata set 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c region=emea',
    'esign template metadata set 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c owner=legal tier=gold',
  ],
  async run(f, _o, id, pairs) {
    const values = metadataFlags(pairs, 'metadata set')!;
    await showTemplate(f, await (await f.service()).updateTemplate(id, { metadata: values }));
  },
});

export const unset = defineVerb({
  command: (metadata: Parent) =>
    metadata.command('unset <id> <keys...>').description('Remove keys (absent keys are ignored)'),
  examples: [
    'esign template metadata unset 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c region',
    'esign template metadata unset 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c owner tier',
  ],
  async run(f, _o, id, keys) {
    const body = { metadata: Object.fromEntries(keys.map((k) => [k, ''])) };
    await showTemplate(f, await (await f.service()).updateTemplate(id, body));
  },
});

export const clear = defineVerb({
  command: (metadata: Parent) =>
    metadata.command('clear <id>').description('Remove every key').option('-y, --yes', 'do not ask for confirmation'),
  examples: [
    'esign template metadata clear 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
    'esign template metadata clear 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --yes',
  ],
  async run(f, o, id) {
    await confirm(f, `Remove all metadata of template ${id}?`, o.yes);
    await showTemplate(f, await (await f.service()).updateTemplate(id, { metadata: '' }));
  },
});
