// esign template delete ID (asks first, or --yes).
import { deleteVerb } from '../../verb.js';

export const del = deleteVerb({
  what: 'template',
  description: 'Delete a Document Template',
  examples: [
    'esign template delete 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
    'esign template delete 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --yes',
  ],
  remove: (s, id) => s.deleteTemplate(id),
});
