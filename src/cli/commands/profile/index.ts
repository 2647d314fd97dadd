// esign profile ...: named connections (a remote API v2 server with its key, or a local data directory).
import type { Action } from '../../run.js';
import { type Parent, registerVerbs } from '../../verb.js';
import { add } from './add.js';
import { list } from './list.js';
import { remove } from './remove.js';
import { show } from './show.js';
import { use } from './use.js';

export function register(program: Parent, action: Action): void {
  const profile = program
    .command('profile')
    .description('Named connections: a remote API v2 server and key, or a local data directory');
  registerVerbs(profile, action, [add, list, use, show, remove]);
}
