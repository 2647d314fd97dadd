// esign person delete ID (asks first, or --yes).
import { deleteVerb } from '../../verb.js';

export const del = deleteVerb({
  what: 'person',
  description: 'Delete a Person',
  examples: [
    'esign person delete 2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
    'esign person delete 2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d --yes',
  ],
  remove: (s, id) => s.deletePerson(id),
});
