// esign webhook secret [--regenerate]: the secret deliveries are signed with.
import { fieldsOf, printObject } from '../../output/print.js';
import { confirm } from '../../run.js';
import { defineVerb } from '../../verb.js';

export const secret = defineVerb('secret', 'The secret deliveries are signed with (X-Blueink-Signature)', {
  flags: (c) =>
    c
      .option('--regenerate', 'make a new secret (receivers must be told)')
      .option('-y, --yes', 'do not ask for confirmation'),
  examples: ['esign webhook secret', 'esign webhook secret --regenerate --yes'],
  async run(f, o) {
    const service = await f.service();
    if (o.regenerate)
      await confirm(f, 'Regenerate the webhook secret? Receivers checking the old one will reject deliveries.', o.yes);
    const s = o.regenerate ? await service.regenerateWebhookSecret() : await service.getWebhookSecret();
    await printObject(f, s, fieldsOf(s, ['secret', 'create_date']), s.secret);
  },
});
