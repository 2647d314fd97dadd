// esign bundle send SLUG: send a draft (or pending) Bundle.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showBundle } from './show.js';

export interface SendOptions {
  slug: string;
  live?: boolean;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('send <slug>')
    .description('Send a draft (or pending) Bundle')
    .option('--live', 'on a remote server, really send a non-test Bundle')
    .action(action(async (f, o: Omit<SendOptions, 'slug'>, slug: string) => run(f, { ...o, slug })));
}

export async function run(f: Factory, o: SendOptions): Promise<void> {
  const service = await f.service();
  // Whether the draft is a test Bundle is asked only when it matters (messages really go out, not live).
  await f.requireLive(async () => (await service.getBundle(o.slug)).is_test, o.live, 'send');
  await showBundle(f, await service.sendBundle(o.slug));
}
