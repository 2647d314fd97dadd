// esign profile remove NAME (asks first, or --yes): the profile and its key.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { openProfiles } from '../../profiles.js';
import { type Action, confirm } from '../../run.js';

export interface RemoveOptions {
  name: string;
  yes?: boolean;
}

export function register(profile: Command, action: Action): void {
  profile
    .command('remove <name>')
    .description('Remove a profile and its key')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (f, o: Omit<RemoveOptions, 'name'>, name: string) => run(f, { ...o, name })));
}

export async function run(f: Factory, o: RemoveOptions): Promise<void> {
  const store = await openProfiles(f.env);
  store.get(o.name);
  await confirm(f, `Remove profile "${o.name}" and its key?`, o.yes);
  store.remove(o.name);
}
