// esign person: Persons (saved signers with their email addresses and phones).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { registerVerbs } from '../../verb.js';
import { create } from './create.js';
import { del } from './delete.js';
import { get } from './get.js';
import { list } from './list.js';
import { update } from './update.js';

export function register(program: Command, action: Action): void {
  const person = program.command('person').description('Persons: saved signers with their email addresses and phones');
  registerVerbs(person, action, [list, create, get, update, del]);
}
