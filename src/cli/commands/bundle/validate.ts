// esign bundle validate SLUG: whether a draft can be sent.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import type { Action } from '../../run.js';

export interface ValidateOptions {
  slug: string;
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('validate <slug>')
    .description('Check whether a draft can be sent')
    .action(action(async (f, _o: object, slug: string) => run(f, { slug })));
}

export async function run(f: Factory, o: ValidateOptions): Promise<void> {
  const r = await (await f.service()).validateBundle(o.slug);
  await printObject(
    f,
    r,
    [
      ['can_send', r.can_send],
      ['msg', r.msg],
      ['n_docs', r.n_docs],
    ],
    String(r.can_send),
  );
  if (!r.can_send)
    throw new CliError(`Bundle ${o.slug} cannot be sent: ${r.msg || 'no reason given'}`, EXIT.CANNOT_SEND);
}
