// esign envelope-template: Envelope Templates (reusable Bundles: documents and signer roles).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as get from './get.js';
import * as list from './list.js';

export function register(program: Command, action: Action): void {
  const et = program
    .command('envelope-template')
    .description('Envelope Templates: reusable Bundles (documents and signer roles)');
  for (const verb of [list, get]) verb.register(et, action);
}
