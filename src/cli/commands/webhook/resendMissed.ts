// esign webhook resend-missed ID: the events a webhook missed while disabled, sent once each after it
// is enabled again. The API has no such record: the local engine keeps it, a remote backend cannot.
import { MISSED_NOT_KEPT, resendMissedOutcome } from '../../../app/missedEvents.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { note, printObject } from '../../output/print.js';
import { defineVerb } from '../../verb.js';

export const resendMissed = defineVerb(
  'resend-missed <webhookId>',
  'Send the events a webhook missed while it was disabled, once each (local engine)',
  {
    examples: [
      'esign webhook resend-missed 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a',
      'esign webhook resend-missed 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --json',
    ],
    async run(f, _o, id) {
      const s = await f.service();
      if (!s.resendMissedWebhookEvents) throw new CliError(`Nothing was sent. ${MISSED_NOT_KEPT}`, EXIT.USAGE);
      const w = await s.getWebhook(id);
      const r = await s.resendMissedWebhookEvents(w.id);
      const said = resendMissedOutcome(w.name, r);
      if (f.options.quiet) f.io.out.write(r.events.map((e) => `${e}\n`).join(''));
      else
        await printObject(f, r, [
          ['webhook', `${w.name} (${w.id})`],
          ['sent', r.events.length],
          ['delivered', r.delivered],
          ['failed', r.failed],
          ['queued', r.queued],
          [
            'events',
            r.events.length ? `esign webhook events --webhook ${w.id} (-q or --json lists their ids)` : 'none',
          ],
        ]);
      if (!f.options.json && !f.options.quiet && said.ok) note(f, said.text);
      if (!said.ok) throw new CliError(said.text, r.delivered ? EXIT.PARTIAL : EXIT.FAILURE);
    },
  },
);
