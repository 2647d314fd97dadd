// esign local ...: the embedded engine's own account, outbox, clock, keys, signer actions and
// template authoring (not part of API v2).
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as account from './account.js';
import * as clock from './clock.js';
import * as features from './features.js';
import * as info from './info.js';
import * as keys from './keys.js';
import * as outbox from './outbox.js';
import * as runDue from './runDue.js';
import * as signer from './signer.js';
import * as teams from './teams.js';
import * as templates from './templates.js';
import * as users from './users.js';

export function register(program: Command, action: Action): void {
  const local = program
    .command('local')
    .description('The embedded local engine: account, features, users, outbox, clock');
  for (const verb of [signer, templates, info, account, features, users, teams, runDue, outbox, keys, clock])
    verb.register(local, action);
}
