// esign template: Document Templates (reusable PDFs with signer roles and fields).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { registerVerbs } from '../../verb.js';
import { del } from './delete.js';
import { get } from './get.js';
import { list } from './list.js';
import { clear, set, unset } from './metadata.js';
import { prepare } from './prepare.js';

export function register(program: Command, action: Action): void {
  const template = program
    .command('template')
    .description('Document Templates: reusable PDFs with signer roles and fields');
  registerVerbs(template, action, [list, get]);
  const metadata = template.command('metadata').description("Change a template's metadata (the only writable member)");
  registerVerbs(metadata, action, [set, unset, clear]);
  registerVerbs(template, action, [del, prepare]);
}
