// esign local outbox: the emails and SMS the engine would have sent.
import type { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { printList } from '../../output/print.js';
import type { Action } from '../../run.js';
import type { MessageKind } from '../../../local/messages/outbox.js';
import { choiceOption } from '../../flags.js';

export interface OutboxOptions {
  bundle?: string;
  packet?: string;
  to?: string;
  kind?: string;
}

const MESSAGE_KINDS = ['signing_request', 'reminder', 'docs_ready', 'declined', 'reassigned'] satisfies MessageKind[];

export function register(local: Command, action: Action): void {
  local
    .command('outbox')
    .description('Emails and SMS the engine would have sent')
    .option('--bundle <slug>')
    .option('--packet <id>')
    .option('--to <address>')
    .addOption(choiceOption('--kind <kind>', 'what the message was', MESSAGE_KINDS))
    .action(action(run));
}

export async function run(f: Factory, o: OutboxOptions): Promise<void> {
  const list = (await f.local()).outbox(o);
  await printList(
    f,
    list,
    [
      { header: 'TIME', value: (m) => m.created },
      { header: 'KIND', value: (m) => m.kind },
      { header: 'CHANNEL', value: (m) => m.channel },
      { header: 'TO', value: (m) => m.recipient },
      { header: 'SUBJECT', value: (m) => m.subject },
      { header: 'BUNDLE', value: (m) => m.bundle_id ?? '' },
    ],
    (m) => String(m.id),
  );
}
