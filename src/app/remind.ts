// Reminding a Bundle's signers: every signer whose turn it is (all pending ones, or the next in
// order), except those signing embedded, who get no messages. `esign bundle remind` and MCP's
// remind_signers both ask this who is due.
import type { EsignService } from '../service/service.js';
import { bundleStateWord, isInProgress, signersWhoseTurnItIs } from '../domain/states.js';
import type { Packet } from '../service/types.js';
import { UseCaseError } from './failure.js';

/** The packets of Bundle `id` to remind now; refuses (conflict) when there is none. */
export async function signersToRemind(service: EsignService, id: string): Promise<Packet[]> {
  const b = await service.getBundle(id);
  if (!isInProgress(b.status))
    throw new UseCaseError(
      `Bundle ${id} is ${bundleStateWord(b.status)}: reminders go only to sent or started Bundles.`,
      'conflict',
    );
  const due = signersWhoseTurnItIs(b.in_order, b.packets).filter((p) => p.deliver_via !== 'embed');
  if (!due.length)
    throw new UseCaseError(`Bundle ${id} has no signer to remind (embedded signers get no messages).`, 'conflict');
  return due;
}
