// esign webhook verify: check one delivery's signature (the checker loads only when it runs).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import type { VerifyOptions } from './verifyDelivery.js';

// The options live beside the code that reads them, so the lazily loaded checker imports nothing back.
export type { VerifyOptions };

export function register(webhook: Command, action: Action): void {
  webhook
    .command('verify')
    .description("Check a delivery's signature: exit 0 if good, 9 if it does not match, 11 if its timestamp is stale")
    .option('--secret <secret>', 'the webhook secret (env ESIGN_WEBHOOK_SECRET)')
    .option('--signature <sig>', 'the X-Blueink-Signature header (v0=HEX)')
    .option('--timestamp <ts>', 'the X-Blueink-Request-Timestamp header (UNIX seconds)')
    .option('--payload <text>', 'the raw body (else --payload-file, else stdin)')
    .option('--payload-file <file>', 'a file holding the raw body, byte for byte')
    .option('--tolerance <seconds>', 'largest accepted age of the timestamp', '300')
    .action(action(run));
}

export async function run(f: Factory, o: VerifyOptions): Promise<void> {
  await (await import('./verifyDelivery.js')).verifyCommand(f, o);
}
