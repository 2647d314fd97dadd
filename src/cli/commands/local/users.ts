// esign local users list|add|verify|unverify|remove: users of the account (test Bundles go only to
// their verified addresses).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList, printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface AddOptions {
  email: string;
  name?: string;
  admin?: boolean;
  unverified?: boolean;
}

export function register(local: Command, action: Action): void {
  const users = local
    .command('users')
    .description('Users of the account (test Bundles go only to their verified addresses)');
  users.command('list', { isDefault: true }).description('List users').action(action(runList));
  users
    .command('add <email>')
    .description('Add a user (verified unless --unverified)')
    .option('--name <name>')
    .option('--admin')
    .option('--unverified')
    .action(action(async (f, o: Omit<AddOptions, 'email'>, email: string) => runAdd(f, { ...o, email })));
  for (const [verb, verified] of [
    ['verify', true],
    ['unverify', false],
  ] as const)
    users
      .command(`${verb} <email>`)
      .description(verified ? 'Mark the address verified' : 'Mark the address unverified')
      .action(action(async (f, _o: object, email: string) => runVerify(f, email, verified)));
  users
    .command('remove <email>')
    .description('Remove a user')
    .action(action(async (f, _o: object, email: string) => (await f.local()).account.removeUser(email)));
}

export async function runList(f: Factory): Promise<void> {
  const list = (await f.local()).account.users();
  await printList(
    f,
    list,
    [
      { header: 'ID', value: (u) => u.id },
      { header: 'EMAIL', value: (u) => u.email },
      { header: 'NAME', value: (u) => u.name },
      { header: 'VERIFIED', value: (u) => u.verified },
      { header: 'ADMIN', value: (u) => u.is_admin },
    ],
    (u) => u.id,
  );
}

export async function runAdd(f: Factory, o: AddOptions): Promise<void> {
  const u = (await f.local()).account.addUser({
    email: o.email,
    name: o.name,
    admin: o.admin,
    verified: !o.unverified,
  });
  await printObject(f, u, Object.entries(u), u.id);
}

export async function runVerify(f: Factory, email: string, verified: boolean): Promise<void> {
  const u = (await f.local()).account.setUserVerified(email, verified);
  await printObject(f, u, Object.entries(u), u.id);
}
