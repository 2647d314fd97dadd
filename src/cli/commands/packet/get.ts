// esign packet get ID
import { idVerb } from '../../verb.js';
import { showPacket } from './shared/display.js';

export const get = idVerb({
  name: 'get',
  description: 'Show a packet',
  examples: ['esign packet get Rw3pLk8sQe', 'esign packet get Rw3pLk8sQe --json'],
  fetch: (s, id) => s.getPacket(id),
  show: showPacket,
});
