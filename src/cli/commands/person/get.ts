// esign person get ID
import { idVerb } from '../../verb.js';
import { showPerson } from './shared/display.js';

export const get = idVerb({
  name: 'get',
  description: 'Show a Person',
  examples: [
    'esign person get 2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
    'esign person get 2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d --json',
  ],
  fetch: (s, id) => s.getPerson(id),
  show: showPerson,
});
