// esign local users list|add|verify|unverify|remove: users of the account (test Bundles go only to
// their verified addresses).
import { fieldColumns, printObject } from '../../output/print.js';
import { type Parent, defineVerb } from '../../verb.js';
import { engineList, switchVerbs } from './shared/verbs.js';

export const list = engineList({
  description: 'List users',
  examples: ['esign local users list', 'esign local users list --json'],
  rows: (engine) => engine.account.users(),
  columns: [...fieldColumns(['id', 'email', 'name', 'verified']), { header: 'ADMIN', value: (u) => u.is_admin }],
  id: (u) => u.id,
});

export const add = defineVerb('add <email>', 'Add a user (verified unless --unverified)', {
  flags: (c) => c.option('--name <name>').option('--admin').option('--unverified'),
  examples: [
    'esign local users add ada@example.com --name "Ada Lovelace"',
    'esign local users add ops@example.com --admin --unverified',
  ],
  async run(f, o, email) {
    const u = (await f.localEngine()).account.addUser({ email, name: o.name, admin: o.admin, verified: !o.unverified });
    await printObject(f, u, Object.entries(u), u.id);
  },
});

export const [verify, unverify] = switchVerbs({
  names: ['verify', 'unverify'],
  descriptions: ['Mark the address verified', 'Mark the address unverified'],
  examples: [
    ['esign local users verify ops@example.com', 'esign local users verify ada@example.com --json'],
    ['esign local users unverify ops@example.com', 'esign local users unverify ada@example.com --json'],
  ],
  command: (users: Parent, name: string) => users.command(name).argument('<email>'),
  async run(f, verified, _o, email) {
    const u = (await f.localEngine()).account.setUserVerified(email, verified);
    await printObject(f, u, Object.entries(u), u.id);
  },
});

export const remove = defineVerb('remove <email>', 'Remove a user', {
  examples: ['esign local users remove ops@example.com', 'esign local users remove ada@example.com --json'],
  async run(f, _o, email) {
    (await f.localEngine()).account.removeUser(email);
  },
});
