// esign bundle create: a Bundle from flags and/or a JSON spec, sent (or saved as a draft), its tags
// added right after, optionally waiting while its documents are processed (the body: create.run.ts).
import { collect } from '../../run.js';
import { type OptionsOf, declareVerb } from '../../verb.js';

export const create = declareVerb('create', 'Create a Bundle and send it (or save it as a draft)', {
  flags: (c) =>
    c
      .option(
        '-f, --spec <file>',
        'BundleRequest JSON (- for stdin); documents may use "file_path"; "tags" are added after creation',
      )
      .option('--file <path>', 'a PDF to sign (repeatable)', collect)
      .option(
        '--signer <"Name <email>">',
        'a signer (repeatable); "Name <+phone>" for SMS; "KEY=Name <email>" sets its key',
        collect,
      )
      .option('--label <text>', 'label of the Bundle')
      .option('--subject <text>', 'email subject')
      .option('--message <text>', 'email message')
      .option('--custom-key <key>', 'your own key to find the Bundle by')
      .option('--cc <email>', 'copy on completion (repeatable)', collect)
      .option('--cc-sender', 'copy the sender on completion')
      .option('--tag <tag>', 'a tag (repeatable; added right after creation)', collect)
      .option('--expires <date>', 'YYYY-MM-DD or an ISO date-time, in the future')
      .option('--send-reminders', 'send reminders (Reminders feature)')
      .option('--reminder-offset <days>', 'days after sending before the first reminder (0-30)')
      .option('--reminder-interval <days>', 'days between reminders (0-30)')
      .option('--reminder-expires <days>', 'days after sending when reminders stop (0-30)')
      .option('--draft', 'save as a draft instead of sending')
      .option('--in-order', 'signers sign one after the other')
      .option('--test', 'a test Bundle (delivered only to verified account addresses)')
      .option('--embed', 'signers from --signer sign through embedded URLs')
      .option('--wait [duration]', 'wait while documents are processed: 90, 90s, 2m (default 60 s)')
      .option('--live', 'on a remote server, really send a non-test Bundle')
      .option('--dry-run', 'validate as a real create would (documents, features, signers, dates), creating nothing')
      .option('--template <uuid>', 'add a document from this Document Template')
      .option(
        '--assign <role=signer>',
        'give a template role to a signer (key, number, email or name; repeatable)',
        collect,
      )
      .option(
        '--value <key=value>',
        'a template field value, or an Envelope Template field value (repeatable)',
        collect,
      )
      .option('--tag-value <name=value>', 'a Data Flow tag value (repeatable)', collect)
      .option(
        '--envelope-template <id>',
        'make the Bundle from an Envelope Template (signers take its roles in order, or --signer "ROLE=Name <email>")',
      ),
  examples: [
    'esign bundle create --file contract.pdf --signer "Ada Lovelace <ada@example.com>" --label "Services agreement" --test',
    'esign bundle create -f fixtures/bundle-spec.json --draft',
    'esign bundle create --file nda.pdf --signer "Ada <ada@example.com>" --signer "Bob <+15551234567>" --in-order --live',
  ],
});

/** What `bundle create`'s flags give, as its declaration types them. */
export type CreateOptions = OptionsOf<typeof create>;
