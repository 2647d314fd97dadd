// esign packet remind ID: a reminder to the signer (at most once an hour).
import { idVerb } from '../../verb.js';
import { showPacket } from './shared/display.js';

export const remind = idVerb({
  name: 'remind',
  description: 'Send the signer a reminder (at most once an hour)',
  examples: ['esign packet remind Rw3pLk8sQe', 'esign packet remind Rw3pLk8sQe --json'],
  fetch: (s, id) => s.remindPacket(id),
  show: showPacket,
});
