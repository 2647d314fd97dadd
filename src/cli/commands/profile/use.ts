// esign profile use NAME | --none: the profile commands use when no flag or environment says otherwise.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { openProfiles } from '../../profiles.js';
import type { Action } from '../../run.js';

export interface UseOptions {
  name?: string;
  none?: boolean;
}

export function register(profile: Command, action: Action): void {
  profile
    .command('use [name]')
    .description('Make a profile current (--none: back to the default local engine)')
    .option('--none', 'no current profile')
    .action(action(async (f, o: Omit<UseOptions, 'name'>, name?: string) => run(f, { ...o, name })));
}

export async function run(f: Factory, o: UseOptions): Promise<void> {
  if (!o.name === !o.none) throw new CliError('Give a profile name, or --none.', EXIT.USAGE);
  const store = await openProfiles(f.env);
  store.use(o.name || undefined);
  f.io.err.write(o.name ? `Using profile "${o.name}".\n` : 'No current profile: commands use the local engine.\n');
}
