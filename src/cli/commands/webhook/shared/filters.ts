// The filters of the webhook event and delivery lists.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { WEBHOOK_EVENT_TYPES } from '../../../../domain/enums.js';
import { choiceOption, dayArg } from '../../../flags.js';
import { intArg } from '../../../run.js';

/** --webhook, --bundle, --event-type, --status, --after and --before. */
export function eventFilterFlags<A extends unknown[], O extends OptionValues>(cmd: Command<A, O, OptionValues>) {
  return cmd
    .option('--webhook <id>', 'of this webhook')
    .option('--bundle <slug>', "for this Bundle (on a server without this filter, matched in each page's payloads)")
    .addOption(choiceOption('--event-type <type>', 'of this event type', WEBHOOK_EVENT_TYPES))
    .option('--status <code>', 'whose last HTTP status is this (0: no answer)')
    .option('--after <date>', 'created on or after this day (YYYY-MM-DD)', dayArg)
    .option('--before <date>', 'created on or before this day (YYYY-MM-DD)', dayArg);
}

/** The query of the filters `eventFilterFlags` declares, but --webhook (each list names it its way). */
export function eventFilters(o: {
  bundle?: string;
  eventType?: string;
  status?: string;
  after?: string;
  before?: string;
}) {
  return {
    bundle: o.bundle,
    event_type: o.eventType,
    status: o.status !== undefined ? intArg(o.status, '--status') : undefined,
    after_date: o.after,
    before_date: o.before,
  };
}
