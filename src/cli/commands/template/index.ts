// esign template: Document Templates (reusable PDFs with signer roles and fields).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as del from './delete.js';
import * as get from './get.js';
import * as list from './list.js';
import * as metadata from './metadata.js';
import * as prepare from './prepare.js';

export function register(program: Command, action: Action): void {
  const template = program
    .command('template')
    .description('Document Templates: reusable PDFs with signer roles and fields');
  for (const verb of [list, get, metadata, del, prepare]) verb.register(template, action);
}
