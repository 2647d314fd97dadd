// esign packet remind ID: a reminder to the signer (at most once an hour).
import { idVerb } from '../../verb.js';
import { note } from '../../output/print.js';
import { showPacket } from './shared/display.js';

const channelOf = (p: { deliver_via: string; phone: string | null; email: string | null }) =>
  p.deliver_via === 'phone' ? `SMS to ${p.phone}` : `email to ${p.email}`;

export const remind = idVerb({
  name: 'remind',
  description: 'Send the signer a reminder (at most once an hour)',
  examples: ['esign packet remind Rw3pLk8sQe', 'esign packet remind Rw3pLk8sQe --json'],
  fetch: (s, id) => s.remindPacket(id),
  show: async (f, p) => {
    await showPacket(f, p);
    if (!f.options.json && !f.options.quiet) note(f, `A reminder went to ${p.name} by ${channelOf(p)}.`);
  },
});
