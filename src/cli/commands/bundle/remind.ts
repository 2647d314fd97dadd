// esign bundle remind ID... | -: remind every signer whose turn it is, on each Bundle.
import { CliError, EXIT } from '../../exitCodes.js';
import { defineVerb } from '../../verb.js';

export const remind = defineVerb(
  'remind <ids...>',
  'Remind every signer whose turn it is (several ids, or - for ids from stdin); exit 12 if any failed',
  {
    examples: ['esign bundle remind 9KwSrpJdyp', 'esign bundle list -q --status se | esign bundle remind -'],
    async run(f, _o, ids) {
      const [{ readIds, forEachId }, { signersWhoseTurnItIs, isInProgress, bundleStateWord }] = await Promise.all([
        import('../../bulk.js'),
        import('../../../service/states.js'),
      ]);
      const service = await f.service();
      const remindDue = async (id: string): Promise<string[]> => {
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
      await forEachId(f, await readIds(f, ids), remindDue, (names) => `reminded ${names.join(', ')}`);
    },
  },
);
