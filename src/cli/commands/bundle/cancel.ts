// esign bundle cancel SLUG: cancel a Bundle that is not complete (asks first, or --yes).
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { type Action, confirm } from '../../run.js';
import { showBundle } from './show.js';

export interface CancelOptions {
  slug: string;
  yes?: boolean;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('cancel <slug>')
    .description('Cancel a Bundle that is not complete')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (f, o: Omit<CancelOptions, 'slug'>, slug: string) => run(f, { ...o, slug })));
}

export async function run(f: Factory, o: CancelOptions): Promise<void> {
  await confirm(f, `Cancel Bundle ${o.slug}? Signers can no longer sign it.`, o.yes);
  await showBundle(f, await (await f.service()).cancelBundle(o.slug));
}
