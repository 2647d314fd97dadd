// esign webhook: event subscriptions, their deliveries, and tools for receivers.
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as events from './events.js';
import * as get from './get.js';
import * as headers from './headers.js';
import * as list from './list.js';
import * as listen from './listen.js';
import * as sandbox from './sandbox.js';
import * as secret from './secret.js';
import * as update from './update.js';
import * as verify from './verify.js';

export function register(program: Command, action: Action): void {
  const webhook = program
    .command('webhook')
    .description('Webhooks: event subscriptions, their deliveries, and tools for receivers');
  for (const verb of [list, create, get, update, del, headers, events, secret, sandbox, verify, listen])
    verb.register(webhook, action);
}
