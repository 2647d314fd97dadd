// esign bundle cancel SLUG...: cancel Bundles that are not complete (asks first, or --yes);
// several ids, or - for ids from stdin.
import type { Command } from '@commander-js/extra-typings';
import { forEachId, readIds } from '../../bulk.js';
import type { Factory } from '../../factory.js';
import { type Action, confirm } from '../../run.js';
import { showBundle } from './show.js';

export interface CancelOptions {
  slugs: string[];
  yes?: boolean;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('cancel <slugs...>')
    .description('Cancel Bundles that are not complete (several ids, or - for ids from stdin)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(async (f, o: Omit<CancelOptions, 'slugs'>, slugs: string[]) => run(f, { ...o, slugs })));
}

export async function run(f: Factory, o: CancelOptions): Promise<void> {
  const ids = await readIds(f, o.slugs);
  await confirm(
    f,
    ids.length === 1
      ? `Cancel Bundle ${ids[0]}? Signers can no longer sign it.`
      : `Cancel ${ids.length} Bundles? Signers can no longer sign them.`,
    o.yes,
  );
  const service = await f.service();
  await forEachId(
    f,
    ids,
    (slug) => service.cancelBundle(slug),
    (b) => b.status,
    (b) => showBundle(f, b),
  );
}
