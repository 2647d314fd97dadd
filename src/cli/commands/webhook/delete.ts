// esign webhook delete ID (asks first, or --yes).
import { deleteVerb } from '../../verb.js';

export const del = deleteVerb({
  what: 'webhook',
  description: 'Delete a webhook (its events and headers go with it)',
  examples: [
    'esign webhook delete 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
    'esign webhook delete 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --yes',
  ],
  remove: (s, id) => s.deleteWebhook(id),
});
