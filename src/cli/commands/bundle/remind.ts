// esign bundle remind ID... | -: remind every signer whose turn it is, on each Bundle.
import type { Command } from '@commander-js/extra-typings';
import { CliError, EXIT } from '../../exitCodes.js';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';

export interface RemindOptions {
  ids: string[];
}

export function register(bundle: Command, action: Action): void {
  bundle
    .command('remind <ids...>')
    .description('Remind every signer whose turn it is (several ids, or - for ids from stdin); exit 12 if any failed')
    .action(action(async (f, _o, ids: string[]) => run(f, { ids })));
}

export async function run(f: Factory, o: RemindOptions): Promise<void> {
  const [{ readIds, forEachId }, { signersWhoseTurnItIs, isInProgress, bundleStateWord }] = await Promise.all([
    import('../../bulk.js'),
    import('../../../service/states.js'),
  ]);
  const service = await f.service();
  const remind = async (id: string): Promise<string[]> => {
    const b = await service.getBundle(id);
    if (!isInProgress(b.status))
      throw new CliError(
        `Bundle ${id} is ${bundleStateWord(b.status)}: reminders go only to sent or started Bundles.`,
        EXIT.CONFLICT,
      );
    const due = signersWhoseTurnItIs(b.in_order, b.packets).filter((p) => p.deliver_via !== 'embed');
    if (!due.length)
      throw new CliError(`Bundle ${id} has no signer to remind (embedded signers get no messages).`, EXIT.CONFLICT);
    for (const p of due) await service.remindPacket(p.id);
    return due.map((p) => p.name || p.email || p.phone || p.id);
  };
  await forEachId(f, await readIds(f, o.ids), remind, (names) => `reminded ${names.join(', ')}`);
}
