// esign local outbox: the emails and SMS the engine would have sent.
import type { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { printList } from '../../output.js';
import type { Action } from '../../run.js';

export interface OutboxOptions {
  bundle?: string;
  packet?: string;
  to?: string;
  kind?: string;
}

export function register(local: Command, action: Action): void {
  local.command('outbox').description('Emails and SMS the engine would have sent')
    .option('--bundle <slug>').option('--packet <id>').option('--to <address>').option('--kind <kind>', 'signing_request, reminder, docs_ready, declined')
    .action(action(run));
}

export async function run(f: Factory, o: OutboxOptions): Promise<void> {
  const list = (await f.local()).outbox(o);
  await printList(f, list, [
    { header: 'TIME', value: (m) => m.created }, { header: 'KIND', value: (m) => m.kind }, { header: 'CHANNEL', value: (m) => m.channel },
    { header: 'TO', value: (m) => m.recipient }, { header: 'SUBJECT', value: (m) => m.subject }, { header: 'BUNDLE', value: (m) => m.bundle_id ?? '' },
  ], (m) => String(m.id));
}
