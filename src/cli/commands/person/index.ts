// esign person: Persons (saved signers with their email addresses and phones).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as get from './get.js';
import * as list from './list.js';
import * as update from './update.js';

export function register(program: Command, action: Action): void {
  const person = program.command('person').description('Persons: saved signers with their email addresses and phones');
  for (const verb of [list, create, get, update, del]) verb.register(person, action);
}
