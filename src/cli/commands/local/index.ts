// esign local ...: the embedded engine's own account, outbox, clock, keys, signer actions and
// template authoring (not part of API v2).
import type { Action } from '../../run.js';
import { type Parent, registerVerbs } from '../../verb.js';
import * as account from './account.js';
import * as clock from './clock.js';
import * as features from './features.js';
import { info } from './info.js';
import * as keys from './keys.js';
import { outbox } from './outbox.js';
import { runDue } from './runDue.js';
import { decline, reassign, sign, view } from './signer.js';
import * as teams from './teams.js';
import { createEnvelopeTemplate, importTemplate } from './templates.js';
import * as users from './users.js';

export function register(program: Parent, action: Action): void {
  const local = program
    .command('local')
    .description('The embedded local engine: account, features, users, outbox, clock');
  const group = (name: string, description: string) => local.command(name).description(description);
  registerVerbs(local, action, [view, sign, reassign, decline]);
  registerVerbs(group('template', 'Document Templates of the local engine'), action, [importTemplate]);
  registerVerbs(group('envelope-template', 'Envelope Templates of the local engine'), action, [createEnvelopeTemplate]);
  registerVerbs(local, action, [info]);
  registerVerbs(group('account', 'Requester defaults and links of the local account'), action, [
    account.show,
    account.set,
  ]);
  const featureList = [features.list, features.enable, features.disable];
  registerVerbs(group('features', 'Account features (teams, reminders, signing_brands, ...)'), action, featureList);
  const userVerbs = [users.list, users.add, users.verify, users.unverify, users.remove];
  registerVerbs(
    group('users', 'Users of the account (test Bundles go only to their verified addresses)'),
    action,
    userVerbs,
  );
  registerVerbs(group('teams', 'Teams of the account'), action, [teams.listTeams, teams.addTeam]);
  registerVerbs(group('brands', 'Signing brands of the account'), action, [teams.listBrands, teams.addBrand]);
  registerVerbs(local, action, [runDue, outbox]);
  const keyVerbs = [keys.list, keys.create, keys.revoke];
  registerVerbs(group('keys', 'API keys for esign serve (stored hashed; a key is shown once)'), action, keyVerbs);
  registerVerbs(group('clock', "The engine's clock, which tests can move forward"), action, [
    clock.show,
    clock.advance,
    clock.reset,
  ]);
}
