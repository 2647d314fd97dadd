// esign template metadata set|unset|clear: a template's metadata (its only writable member).
import { confirm } from '../../run.js';
import { type Parent, customVerb, defineVerb } from '../../verb.js';
import { showTemplate } from './shared/display.js';
import { metadataFlags } from './shared/metadata.js';

/** `set` and `unset`: a template's id and a list, sent as a change of its metadata. */
const change = (spec: {
  name: string;
  /** What the list holds, as the help names it. */
  list: string;
  description: string;
  examples: string[];
  metadata: (list: string[]) => Record<string, string>;
}) =>
  customVerb({
    command: (metadata: Parent) =>
      metadata.command(spec.name).argument('<id>').argument(`<${spec.list}...>`).description(spec.description),
    examples: spec.examples,
    run: async (f, _o, id, list) =>
      showTemplate(f, await (await f.service()).updateTemplate(id, { metadata: spec.metadata(list) })),
  });

export const set = change({
  name: 'set',
  list: 'pairs',
  description: 'Set or change keys: KEY=VALUE ... (other keys are kept)',
  examples: [
    'esign template metadata set 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c region=emea',
    'esign template metadata set 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c owner=legal tier=gold',
  ],
  metadata: (pairs) => metadataFlags(pairs, 'metadata set')!,
});

export const unset = change({
  name: 'unset',
  list: 'keys',
  description: 'Remove keys (absent keys are ignored)',
  examples: [
    'esign template metadata unset 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c region',
    'esign template metadata unset 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c owner tier',
  ],
  // An empty value deletes a key.
  metadata: (keys) => Object.fromEntries(keys.map((k) => [k, ''])),
});

export const clear = defineVerb('clear <id>', 'Remove every key', {
  flags: (c) => c.option('-y, --yes', 'do not ask for confirmation'),
  examples: [
    'esign template metadata clear 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
    'esign template metadata clear 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --yes',
  ],
  async run(f, o, id) {
    await confirm(f, `Remove all metadata of template ${id}?`, o.yes);
    await showTemplate(f, await (await f.service()).updateTemplate(id, { metadata: '' }));
  },
});
