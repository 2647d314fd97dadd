// esign packet embed-url ID: a single-use, expiring URL for embedded signing.
import { noServerNote } from '../../../app/runningServer.js';
import { fieldsOf, note, printObject } from '../../output/print.js';
import { idVerb } from '../../verb.js';

export const embedUrl = idVerb({
  name: 'embed-url',
  description: 'A single-use, expiring URL for embedded signing',
  examples: ['esign packet embed-url Rw3pLk8sQe', 'esign packet embed-url Rw3pLk8sQe -q'],
  fetch: (s, id) => s.createEmbedUrl(id),
  async show(f, u) {
    await printObject(f, u, fieldsOf(u, ['url', 'expires']), u.url);
    const none = noServerNote(await f.service(), 'this link does not open');
    if (none) note(f, none);
  },
});
