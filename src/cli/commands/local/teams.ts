// esign local teams list|add and local brands list|add: teams and signing brands of the account.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList, printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface AddTeamOptions {
  name: string;
  requesterName?: string;
  requesterEmail?: string;
}
export interface AddBrandOptions {
  name: string;
  redirectUrl?: string;
}

export function register(local: Command, action: Action): void {
  const teams = local.command('teams').description('Teams of the account');
  teams.command('list', { isDefault: true }).action(action(runListTeams));
  teams
    .command('add <name>')
    .description('Add a team')
    .option('--requester-name <name>')
    .option('--requester-email <email>')
    .action(action(async (f, o: Omit<AddTeamOptions, 'name'>, name: string) => runAddTeam(f, { ...o, name })));

  const brands = local.command('brands').description('Signing brands of the account');
  brands.command('list', { isDefault: true }).action(action(runListBrands));
  brands
    .command('add <name>')
    .description('Add a signing brand')
    .option('--redirect-url <url>')
    .action(action(async (f, o: Omit<AddBrandOptions, 'name'>, name: string) => runAddBrand(f, { ...o, name })));
}

export async function runListTeams(f: Factory): Promise<void> {
  const list = (await f.local()).account.teams();
  await printList(
    f,
    list,
    [
      { header: 'ID', value: (t) => t.id },
      { header: 'NAME', value: (t) => t.name },
      { header: 'REQUESTER', value: (t) => t.requester_email ?? '' },
    ],
    (t) => t.id,
  );
}

export async function runAddTeam(f: Factory, o: AddTeamOptions): Promise<void> {
  const t = (await f.local()).account.addTeam({
    name: o.name,
    requester_name: o.requesterName,
    requester_email: o.requesterEmail,
  });
  await printObject(f, t, Object.entries(t), t.id);
}

export async function runListBrands(f: Factory): Promise<void> {
  const list = (await f.local()).account.brands();
  await printList(
    f,
    list,
    [
      { header: 'ID', value: (b) => b.id },
      { header: 'NAME', value: (b) => b.name },
      { header: 'REDIRECT', value: (b) => b.redirect_url ?? '' },
    ],
    (b) => b.id,
  );
}

export async function runAddBrand(f: Factory, o: AddBrandOptions): Promise<void> {
  const b = (await f.local()).account.addBrand({ name: o.name, redirect_url: o.redirectUrl });
  await printObject(f, b, Object.entries(b), b.id);
}
