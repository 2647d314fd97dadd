// esign local outbox: the emails and SMS the engine would have sent (the newest thousand unless
// told otherwise; a list that stops says so).
import { MESSAGE_KINDS } from '../../../domain/enums.js';
import { choiceOption } from '../../flags.js';
import { messageKindWord } from '../../../domain/states.js';
import { note, printList } from '../../output/print.js';
import { intArg } from '../../run.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { defineVerb } from '../../verb.js';
import { similarAddresses, similarAddressWords } from '../../../app/similarAddresses.js';

const DEFAULT_LIMIT = 1000;

export const outbox = defineVerb('outbox', 'Emails and SMS the engine would have sent', {
  flags: (c) =>
    c
      .option('--bundle <slug>')
      .option('--packet <id>')
      .option('--to <address>')
      .addOption(choiceOption('--kind <kind>', 'what the message was', MESSAGE_KINDS))
      .option('--limit <n>', `the newest N messages (default ${DEFAULT_LIMIT})`)
      .option('--all', 'every message'),
  examples: ['esign local outbox', 'esign local outbox --bundle 9KwSrpJdyp --to ada@example.com'],
  async run(f, o) {
    if (o.all && o.limit !== undefined) throw new CliError('Give --limit or --all, not both.', EXIT.USAGE);
    const limit = o.all ? null : o.limit !== undefined ? intArg(o.limit, '--limit', 1) : DEFAULT_LIMIT;
    const q = { bundle: o.bundle, packet: o.packet, to: o.to, kind: o.kind };
    // A remote backend's sandbox (esign serve) lists the newest thousand at most.
    const remote = (await f.remoteSettings()) !== undefined;
    const tty = f.io.out.isTTY;
    const engine = remote ? undefined : await f.localEngine();
    const read = async (r: typeof q, n: number | null) =>
      engine
        ? engine.outbox({ ...r, limit: n })
        : (await f.sandbox('outbox')).listOutbox({ ...r, limit: Math.min(n ?? DEFAULT_LIMIT, DEFAULT_LIMIT) });
    const list = await read(q, limit);
    await printList(
      f,
      list,
      [
        { header: 'TIME', value: (m) => m.created, kind: 'log', priority: 2 },
        // In words, never cut: what the message was is why support reads the outbox.
        { header: 'KIND', value: (m) => (tty ? messageKindWord(m.kind) : m.kind), priority: 3 },
        // Left out first when narrow: the address says whether it went by email or SMS.
        { header: 'CHANNEL', value: (m) => m.channel, priority: -2 },
        // An address is never cut: too long for its column, it goes whole on a line under the row.
        {
          header: 'TO',
          value: (m) => m.recipient,
          priority: 1,
          overflow: (m) => ({ head: '', lines: [`to: ${m.recipient}`] }),
        },
        { header: 'SUBJECT', value: (m) => m.subject, priority: -1 },
        { header: 'BUNDLE', value: (m) => m.bundle_id, kind: 'id' },
      ],
      (m) => String(m.id),
    );
    if (!list.length && o.to) {
      // An address with a typo in it finds nothing: the newest messages' addresses a typo away from it.
      const seen = (await read({ ...q, to: undefined }, DEFAULT_LIMIT)).map((m) => m.recipient);
      const words = similarAddressWords(o.to, similarAddresses(o.to, seen));
      if (words) note(f, words);
    }
    if (!engine) {
      if (list.length === DEFAULT_LIMIT && (limit ?? Number.POSITIVE_INFINITY) > DEFAULT_LIMIT)
        note(f, `The newest ${DEFAULT_LIMIT.toLocaleString('en')} messages: the server lists no more at a time.`);
      return;
    }
    if (limit !== null && list.length === limit && f.io.err.isTTY) {
      const total = engine.outboxCount(q);
      if (total > list.length)
        note(
          f,
          `The newest ${list.length.toLocaleString('en')} of ${total.toLocaleString('en')} messages: --limit N for more, --all for every one.`,
        );
    }
  },
});
