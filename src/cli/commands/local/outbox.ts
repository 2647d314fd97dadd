// esign local outbox: the emails and SMS the engine would have sent.
import type { MessageKind } from '../../../local/messages/outbox.js';
import { choiceOption } from '../../flags.js';
import { fieldColumns, printList } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

const MESSAGE_KINDS = ['signing_request', 'reminder', 'docs_ready', 'declined', 'reassigned'] satisfies MessageKind[];

export const outbox = defineVerb('outbox', 'Emails and SMS the engine would have sent', {
  flags: (c) =>
    c
      .option('--bundle <slug>')
      .option('--packet <id>')
      .option('--to <address>')
      .addOption(choiceOption('--kind <kind>', 'what the message was', MESSAGE_KINDS)),
  examples: ['esign local outbox', 'esign local outbox --bundle 9KwSrpJdyp --to ada@example.com'],
  async run(f, o) {
    const list = (await f.local()).outbox(o);
    await printList(
      f,
      list,
      [
        { header: 'TIME', value: (m) => m.created },
        ...fieldColumns<(typeof list)[number]>(['kind', 'channel']),
        { header: 'TO', value: (m) => m.recipient },
        { header: 'SUBJECT', value: (m) => m.subject },
        { header: 'BUNDLE', value: (m) => m.bundle_id },
      ],
      (m) => String(m.id),
    );
  },
});
