// How an Envelope Template is shown.
import type { EnvelopeTemplate } from '../../../../service/types.js';
import { type Out, fieldsOf, printObject } from '../../../output/print.js';

export const byOrder = <T extends { order: number }>(list: T[]) => [...list].sort((a, b) => a.order - b.order);

export async function showEnvelopeTemplate(o: Out, t: EnvelopeTemplate): Promise<void> {
  await printObject(
    o,
    t,
    [
      ...fieldsOf(t, ['id', 'name', 'description', 'created', 'is_shared', 'is_portal', 'allow_direct_signing']),
      ['documents', byOrder(t.documents).map((d) => `${d.key} (${d.name})`)],
      ...byOrder(t.signers).map((s, i): [string, unknown] => {
        const auth = ['sms', 'selfie', 'id'].filter((k) => s[`auth_${k}` as 'auth_sms']);
        return [`signer ${i + 1}`, `${s.key} (${s.label})${auth.length ? ` auth: ${auth.join(', ')}` : ''}`];
      }),
      ['smart_link_url', t.smart_link_url],
    ],
    t.id,
  );
}
