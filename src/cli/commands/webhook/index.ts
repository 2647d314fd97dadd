// esign webhook: event subscriptions, their deliveries, and tools for receivers.
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { registerVerbs } from '../../verb.js';
import { create } from './create.js';
import { del } from './delete.js';
import { deliveries, event, events } from './events.js';
import { get } from './get.js';
import * as headers from './headers.js';
import { list } from './list.js';
import { listen } from './listen.js';
import { resendMissed } from './resendMissed.js';
import { resend, trigger } from './sandbox.js';
import { secret } from './secret.js';
import { update } from './update.js';
import { verify } from './verify.js';

export function register(program: Command, action: Action): void {
  const webhook = program
    .command('webhook')
    .description('Webhooks: event subscriptions, their deliveries, and tools for receivers');
  registerVerbs(webhook, action, [list, create, get, update, del]);
  const extra = webhook.command('headers').description("Extra headers sent with a webhook's deliveries");
  registerVerbs(extra, action, [headers.list, headers.add, headers.update, headers.remove]);
  registerVerbs(webhook, action, [
    events,
    event,
    deliveries,
    secret,
    trigger,
    resend,
    resendMissed,
    verify.loads(() => import('./verifyDelivery.js')),
    listen.loads(() => import('./receiver.js')),
  ]);
}
