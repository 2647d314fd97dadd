// esign auth ...: who commands act as, and where (gh's `auth status`); keys are saved by esign profile add.
import type { Action } from '../../run.js';
import { type Parent, registerVerbs } from '../../verb.js';
import { status } from './status.js';

export function register(program: Parent, action: Action): void {
  const auth = program
    .command('auth')
    .description('Which backend, server and key commands use now, and whether the key works');
  registerVerbs(auth, action, [status]);
}
