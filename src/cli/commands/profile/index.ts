// esign profile ...: named connections (a remote API v2 server with its key, or a local data directory).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as add from './add.js';
import * as list from './list.js';
import * as remove from './remove.js';
import * as show from './show.js';
import * as use from './use.js';

export function register(program: Command, action: Action): void {
  const profile = program
    .command('profile')
    .description('Named connections: a remote API v2 server and key, or a local data directory');
  for (const verb of [add, list, use, show, remove]) verb.register(profile, action);
}
