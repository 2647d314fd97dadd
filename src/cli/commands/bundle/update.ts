// esign bundle update SLUG: expiry, reminders, cc, owner, team, brand of a draft or sent Bundle
// (the body: update.run.ts).
import { collect } from '../../run.js';
import { declareVerb } from '../../verb.js';

export const update = declareVerb(
  'update <slug>',
  'Change a draft or sent Bundle (expiry, reminders, cc, owner, team, brand)',
  {
    flags: (c) =>
      c
        .option('-f, --spec <file>', 'BundlePatchRequest JSON (- for stdin)')
        .option('--expires <date>', 'YYYY-MM-DD or an ISO date-time, in the future')
        .option('--cc <email>', 'replace the cc list (repeatable)', collect)
        .option('--cc-sender', 'copy the sender on completion')
        .option('--no-cc-sender')
        .option('--send-reminders', 'send reminders')
        .option('--no-send-reminders')
        .option('--reminder-offset <days>')
        .option('--reminder-interval <days>')
        .option('--reminder-expires <days>')
        .option('--owner <uuid|none>')
        .option('--team <uuid|none>')
        .option('--signing-brand <uuid|none>'),
    examples: [
      'esign bundle update 9KwSrpJdyp --expires 2025-12-31',
      'esign bundle update 9KwSrpJdyp --send-reminders --reminder-interval 3',
    ],
  },
);
