// esign webhook secret [--regenerate]: the secret deliveries are signed with.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printObject } from '../../output/print.js';
import { type Action, confirm } from '../../run.js';

export interface SecretOptions {
  regenerate?: boolean;
  yes?: boolean;
}

export function register(webhook: Command, action: Action): void {
  webhook
    .command('secret')
    .description('The secret deliveries are signed with (X-Blueink-Signature)')
    .option('--regenerate', 'make a new secret (receivers must be told)')
    .option('-y, --yes', 'do not ask for confirmation')
    .action(action(run));
}

export async function run(f: Factory, o: SecretOptions): Promise<void> {
  const service = await f.service();
  if (o.regenerate)
    await confirm(f, 'Regenerate the webhook secret? Receivers checking the old one will reject deliveries.', o.yes);
  const s = o.regenerate ? await service.regenerateWebhookSecret() : await service.getWebhookSecret();
  await printObject(
    f,
    s,
    [
      ['secret', s.secret],
      ['create_date', s.create_date],
    ],
    s.secret,
  );
}
