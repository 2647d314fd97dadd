// esign local users list|add|verify|unverify|remove: users of the account (test Bundles go only to
// their verified addresses).
import { fieldColumns, printList, printObject } from '../../output/print.js';
import { type Parent, defineVerb } from '../../verb.js';

export const list = defineVerb({
  command: (users: Parent) => users.command('list', { isDefault: true }).description('List users'),
  examples: ['esign local users list', 'esign local users list --json'],
  async run(f) {
    const list = (await f.local()).account.users();
    await printList(
      f,
      list,
      [
        ...fieldColumns<(typeof list)[number]>(['id', 'email', 'name', 'verified']),
        { header: 'ADMIN', value: (u) => u.is_admin },
      ],
      (u) => u.id,
    );
  },
});

export const add = defineVerb({
  command: (users: Parent) =>
    users
      .command('add <email>')
      .description('Add a user (verified unless --unverified)')
      .option('--name <name>')
      .option('--admin')
      .option('--unverified'),
  examples: [
    'esign local users add ada@example.com --name "Ada Lovelace"',
    'esign local users add ops@example.com --admin --unverified',
  ],
  async run(f, o, email) {
    const u = (await f.local()).account.addUser({ email, name: o.name, admin: o.admin, verified: !o.unverified });
    await printObject(f, u, Object.entries(u), u.id);
  },
});

/** `verify` or `unverify`: marks a user's address verified or not. */
const verifyVerb = (verified: boolean, examples: string[]) =>
  defineVerb({
    command: (users: Parent) =>
      users
        .command(verified ? 'verify' : 'unverify')
        .argument('<email>')
        .description(verified ? 'Mark the address verified' : 'Mark the address unverified'),
    examples,
    async run(f, _o, email) {
      const u = (await f.local()).account.setUserVerified(email, verified);
      await printObject(f, u, Object.entries(u), u.id);
    },
  });

export const verify = verifyVerb(true, [
  'esign local users verify ops@example.com',
  'esign local users verify ada@example.com --json',
]);
export const unverify = verifyVerb(false, [
  'esign local users unverify ops@example.com',
  'esign local users unverify ada@example.com --json',
]);

export const remove = defineVerb({
  command: (users: Parent) => users.command('remove <email>').description('Remove a user'),
  examples: ['esign local users remove ops@example.com', 'esign local users remove ada@example.com --json'],
  async run(f, _o, email) {
    (await f.local()).account.removeUser(email);
  },
});
