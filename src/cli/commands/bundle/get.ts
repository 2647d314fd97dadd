// esign bundle get SLUG: one Bundle.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { note } from '../../output/print.js';
import type { Action } from '../../run.js';
import { showBundle } from './show.js';

export interface GetOptions {
  slug: string;
  include?: string;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('get <slug>')
    .description('Show a Bundle')
    .option('--include <members>', 'comma-separated: data, events, files')
    .action(action(async (f, o: Omit<GetOptions, 'slug'>, slug: string) => run(f, { ...o, slug })));
}

export async function run(f: Factory, o: GetOptions): Promise<void> {
  const b = await (await import('../../../service/bundleRef.js')).getBundleOrPacketsBundle(
    await f.service(),
    o.slug,
    o.include,
  );
  if (o.include && !f.options.json && !f.options.quiet) note(f, '(included members are shown with --json)');
  await showBundle(f, b);
}
