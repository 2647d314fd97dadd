// esign webhook listen: receive deliveries here (its body, receiver.ts, loads only when it runs).
import { WEBHOOK_EVENT_TYPES } from '../../../domain/enums.js';
import { choiceListOption } from '../../flags.js';
import { declareVerb } from '../../verb.js';

export const listen = declareVerb(
  'listen',
  'Receive deliveries here: verify, print one line per event, optionally forward',
  {
    flags: (c) =>
      c
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
        .option('--ready-file <path>', 'once listening, write {"ready": true, "url": ...} there (removed on stop)'),
    examples: [
      'esign webhook listen --port 9000',
      'esign webhook listen --forward-to http://127.0.0.1:3000/hooks --events bundle_complete --count 1',
    ],
  },
);
