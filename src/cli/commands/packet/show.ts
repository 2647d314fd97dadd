// How a packet (one signer's part of a Bundle) is shown.
import type { Packet } from '../../../service/types.js';
import { type Out, printObject } from '../../output.js';

export async function showPacket(o: Out, p: Packet): Promise<void> {
  await printObject(o, p, [
    ['id', p.id], ['name', p.name], ['email', p.email], ['phone', p.phone], ['deliver_via', p.deliver_via],
    ['order', p.order], ['status', p.status], ['completed_at', p.completed_at], ['last_accessed_at', p.last_accessed_at],
    ['auth', ['sms', 'selfie', 'id'].filter((k) => p[`auth_${k}` as 'auth_sms'])],
    ['suppress', ['all', 'signing', 'reminder', 'docs_ready'].filter((k) => p[`suppress_${k}` as 'suppress_all'])],
  ], p.id);
}
