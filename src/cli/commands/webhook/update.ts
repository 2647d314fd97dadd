// esign webhook update ID
import { WEBHOOK_EVENT_TYPES } from '../../../domain/enums.js';
import { CliError, EXIT } from '../../exitCodes.js';
import { choiceListOption } from '../../flags.js';
import { commaList } from '../../run.js';
import { defineVerb } from '../../verb.js';
import { showWebhook } from './shared/display.js';
import { missedWords, resendMissedHint } from '../../../app/missedEvents.js';
import { note } from '../../output/print.js';

export const update = defineVerb('update <id>', 'Change a webhook', {
  flags: (c) =>
    c
      .option('--name <name>')
      .option('--url <url>')
      .addOption(
        choiceListOption(
          '--events <types>',
          'comma-separated event types (replaces the subscriptions)',
          WEBHOOK_EVENT_TYPES,
        ),
      )
      .option('--enable', 'enable it')
      .option('--disable', 'disable it')
      .option('--form', 'deliver form-urlencoded bodies')
      .option('--no-form', 'deliver JSON bodies'),
  examples: [
    'esign webhook update 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --disable',
    'esign webhook update 8d9e0f1a-2b3c-4d5e-8f6a-7b8c9d0e1f2a --events bundle_complete,bundle_cancelled',
  ],
  async run(f, o, id) {
    if (o.enable && o.disable) throw new CliError('Give --enable or --disable, not both.', EXIT.USAGE);
    const body: Record<string, unknown> = {};
    if (o.name !== undefined) body.name = o.name;
    if (o.url !== undefined) body.url = o.url;
    if (o.events !== undefined) body.event_types = commaList(o.events);
    if (o.enable || o.disable) body.enabled = o.enable === true;
    if (o.form !== undefined) body.json = !o.form;
    if (!Object.keys(body).length)
      throw new CliError('Nothing to change: give at least one option (see esign webhook update --help).', EXIT.USAGE);
    const s = await f.service();
    const w = await s.updateWebhook(id, body);
    await showWebhook(f, w);
    const missed =
      o.enable && s.listMissedWebhookEvents ? (await s.listMissedWebhookEvents({ webhook: w.id }))[0] : undefined;
    if (missed && !f.options.json && !f.options.quiet)
      note(f, `Webhook ${w.name} is enabled again. Kept for it: ${missedWords(missed)}; ${resendMissedHint(w)}.`);
  },
});
