// esign webhook listen: receive deliveries here (the receiver loads only when it runs).
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import type { Action } from '../../run.js';
import type { ListenOptions } from './receiver.js';
import { WEBHOOK_EVENT_TYPES } from '../../../service/enums.js';
import { choiceListOption } from '../../flags.js';

// The options live beside the code that reads them, so the lazily loaded receiver imports nothing back.
export type { ListenOptions };

export function register(webhook: Command, action: Action): void {
  webhook
    .command('listen')
    .description('Receive deliveries here: verify, print one line per event, optionally forward')
    .option('--port <n>', 'port to listen on (0: any free port)', '0')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--path <path>', 'path deliveries are POSTed to', '/')
    .option('--forward-to <url>', 'POST each verified delivery on to this URL, same body and headers')
    .addOption(
      choiceListOption(
        '--events <types>',
        'comma-separated event types to show and forward (others are answered 200 and skipped)',
        WEBHOOK_EVENT_TYPES,
      ),
    )
    .option('--secret <secret>', 'the webhook secret (env ESIGN_WEBHOOK_SECRET; else asked of the service)')
    .option('--tolerance <seconds>', "largest accepted age of a delivery's timestamp", '300')
    .option('--count <n>', 'exit after this many verified deliveries')
    .option('--count-all', 'with --count, count every delivery, forged or unreadable ones too')
    .action(action(run));
}

export async function run(f: Factory, o: ListenOptions): Promise<void> {
  await (await import('./receiver.js')).listenCommand(f, o);
}
