// esign webhook get ID
import { idVerb } from '../../verb.js';
import { showWebhook } from './shared/display.js';

export const get = idVerb({
  name: 'get',
  description: 'Show a webhook and its extra headers',
  examples: [
    'esign webhook get 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
    'esign webhook get 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --json',
  ],
  fetch: (s, id) => s.getWebhook(id),
  show: showWebhook,
});
