// esign envelope-template get ID
import { idVerb } from '../../verb.js';
import { showEnvelopeTemplate } from './shared/display.js';

export const get = idVerb({
  name: 'get',
  description: 'Show an Envelope Template',
  examples: [
    'esign envelope-template get 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
    'esign envelope-template get 7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f --json',
  ],
  fetch: (s, id) => s.getEnvelopeTemplate(id),
  show: showEnvelopeTemplate,
});
