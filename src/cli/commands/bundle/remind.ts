// esign bundle remind ID... | -: remind every signer whose turn it is, on each Bundle.
import { signersToRemind } from '../../../app/remind.js';
import { forEachId, readIds } from '../../bulk.js';
import { defineVerb } from '../../verb.js';

export const remind = defineVerb(
  'remind <ids...>',
  'Remind every signer whose turn it is (several ids, or - for ids from stdin); exit 12 if any failed',
  {
    examples: ['esign bundle remind 9KwSrpJdyp', 'esign bundle list -q --status se | esign bundle remind -'],
    async run(f, _o, ids) {
      const service = await f.service();
      const remindDue = async (id: string): Promise<string[]> => {
        const due = await signersToRemind(service, id);
        for (const p of due) await service.remindPacket(p.id);
        return due.map((p) => p.name || p.email || p.phone || p.id);
      };
      await forEachId(f, await readIds(f, ids), remindDue, (names) => `reminded ${names.join(', ')}`);
    },
  },
);
