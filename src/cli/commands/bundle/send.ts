// esign bundle send SLUG...: send draft (or pending) Bundles; several ids, or - for ids from stdin.
import type { Command } from '@commander-js/extra-typings';
import { isSendable } from '../../../service/states.js';
import { forEachId, readIds } from '../../bulk.js';
import { rethrowAsStateConflict } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import { showBundle } from './show.js';

export interface SendOptions {
  slugs: string[];
  live?: boolean;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('send <slugs...>')
    .description('Send draft (or pending) Bundles (several ids, or - for ids from stdin)')
    .option('--live', 'on a remote server, really send a non-test Bundle')
    .action(action(async (f, o: Omit<SendOptions, 'slugs'>, slugs: string[]) => run(f, { ...o, slugs })));
}

export async function run(f: Factory, o: SendOptions): Promise<void> {
  const service = await f.service();
  await forEachId(
    f,
    await readIds(f, o.slugs),
    async (slug) => {
      // Whether the draft is a test Bundle is asked only when it matters (messages really go out, not live).
      await f.requireLive(async () => (await service.getBundle(slug)).is_test, o.live, 'send');
      // Sent already, cancelled, complete: the Bundle's state refuses it, whatever the request.
      return service
        .sendBundle(slug)
        .catch((e: unknown) =>
          rethrowAsStateConflict(e, async () => (await service.getBundle(slug)).status, isSendable),
        );
    },
    (b) => b.status,
    (b) => showBundle(f, b),
  );
}
