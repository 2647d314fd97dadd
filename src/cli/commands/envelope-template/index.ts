// esign envelope-template: Envelope Templates (reusable Bundles: documents and signer roles).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { registerVerbs } from '../../verb.js';
import { get } from './get.js';
import { list } from './list.js';

export function register(program: Command, action: Action): void {
  const et = program
    .command('envelope-template')
    .description('Envelope Templates: reusable Bundles (documents and signer roles)');
  registerVerbs(et, action, [list, get]);
}
