// esign template prepare: a single-use URL where a person creates or edits a template.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { type Action, collect } from '../../run.js';
import { metadataFlags, showSession } from './show.js';

export interface PrepareOptions {
  template?: string;
  team?: string;
  library?: string;
  metadata?: string[];
}

export function register(template: Command, action: Action): void {
  template
    .command('prepare')
    .description('A single-use URL where a person creates or edits a template')
    .option('--template <id>', 'edit this template (omit to create one)')
    .option('--team <uuid>', 'team of a new template')
    .option('--library <name>', 'folder of a new template')
    .option('--metadata <key=value>', 'metadata of the template (repeatable)', collect)
    .action(action(run));
}

export async function run(f: Factory, o: PrepareOptions): Promise<void> {
  const body: Record<string, unknown> = {};
  if (o.template) body.template_id = o.template;
  if (o.team) body.team = o.team;
  if (o.library) body.library = o.library;
  const md = metadataFlags(o.metadata);
  if (md) body.metadata = md;
  await showSession(f, await (await f.service()).createTemplatePreparationSession(body));
}
