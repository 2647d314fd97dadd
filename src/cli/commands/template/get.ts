// esign template get ID
import { idVerb } from '../../verb.js';
import { showTemplate } from './shared/display.js';

export const get = idVerb({
  name: 'get',
  description: 'Show a Document Template',
  examples: [
    'esign template get 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c',
    'esign template get 3f2b0c1e-8a4d-4e6b-9c1a-2d5e7f9a0b1c --json',
  ],
  fetch: (s, id) => s.getTemplate(id),
  show: showTemplate,
});
