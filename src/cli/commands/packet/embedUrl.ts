// esign packet embed-url ID: a single-use, expiring URL for embedded signing.
import { fieldsOf, printObject } from '../../output/print.js';
import { idVerb } from '../../verb.js';

export const embedUrl = idVerb({
  name: 'embed-url',
  description: 'A single-use, expiring URL for embedded signing',
  examples: ['esign packet embed-url Rw3pLk8sQe', 'esign packet embed-url Rw3pLk8sQe -q'],
  fetch: (s, id) => s.createEmbedUrl(id),
  show: (f, u) => printObject(f, u, fieldsOf(u, ['url', 'expires']), u.url),
});
