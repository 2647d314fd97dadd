// esign template prepare: a single-use URL where a person creates or edits a template.
import { collect } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { showSession } from './shared/display.js';
import { metadataFlags } from './shared/metadata.js';

export const prepare = defineVerb('prepare', 'A single-use URL where a person creates or edits a template', {
  flags: (c) =>
    c
      .option('--template <id>', 'edit this template (omit to create one)')
      .option('--team <uuid>', 'team of a new template')
      .option('--library <name>', 'folder of a new template')
      .option('--metadata <key=value>', 'metadata of the template (repeatable)', collect),
  examples: ['esign template prepare', 'esign template prepare --library Sales --metadata region=emea'],
  async run(f, o) {
    const body: Record<string, unknown> = {};
    if (o.template) body.template_id = o.template;
    if (o.team) body.team = o.team;
    if (o.library) body.library = o.library;
    const md = metadataFlags(o.metadata);
    if (md) body.metadata = md;
    await showSession(f, await (await f.service()).createTemplatePreparationSession(body));
  },
});
