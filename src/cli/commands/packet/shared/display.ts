// How a packet (one signer's part of a Bundle) is shown, with its Bundle where the backend can tell
// (and then its state in the words `bundle inspect` uses).
import { signerStateWord } from '../../../../domain/states.js';
import type { Packet } from '../../../../service/types.js';
import type { Factory } from '../../../factory.js';
import { printObject } from '../../../output/print.js';

export async function showPacket(f: Factory, p: Packet): Promise<void> {
  const service = await f.service();
  const bundle = service.bundleOfPacket ? await service.bundleOfPacket(p.id) : undefined;
  // The same word as `bundle inspect`: a signer who declined has a cancelled packet in a Declined Bundle.
  const tty = f.io.out.isTTY && !f.options.json && !f.options.quiet;
  const bundleStatus = tty && bundle ? (await service.getBundle(bundle)).status : '';
  await printObject(
    f,
    bundle ? { ...p, bundle } : p,
    [
      ['id', p.id],
      ...(bundle ? [['bundle', bundle] as [string, unknown]] : []),
      ['name', p.name],
      ['email', p.email],
      ['phone', p.phone],
      ['deliver_via', p.deliver_via],
      ['order', p.order],
      ['status', tty ? signerStateWord(p.status, bundleStatus) : p.status],
      ['completed_at', p.completed_at],
      ['last_accessed_at', p.last_accessed_at],
      ['auth', ['sms', 'selfie', 'id'].filter((k) => p[`auth_${k}` as 'auth_sms'])],
      ['suppress', ['all', 'signing', 'reminder', 'docs_ready'].filter((k) => p[`suppress_${k}` as 'suppress_all'])],
    ],
    p.id,
  );
}
