// esign bundle: create, send, track and cancel signature Bundles.
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import { registerVerbs } from '../../verb.js';
import { cancel } from './cancel.js';
import { create } from './create.js';
import { data } from './data.js';
import { events } from './events.js';
import { files } from './files.js';
import { get } from './get.js';
import { inspect } from './inspect.js';
import { list } from './list.js';
import { prepare } from './prepare.js';
import { remind } from './remind.js';
import { send } from './send.js';
import { registerTags } from './tags.js';
import { update } from './update.js';
import { validate } from './validate.js';
import { wait } from './wait.js';

export function register(program: Command, action: Action): void {
  const bundle = program.command('bundle').description('Create, send, track and cancel signature Bundles');
  registerVerbs(bundle, action, [
    create.loads(() => import('./create.run.js')),
    prepare,
    list,
    get,
    update.loads(() => import('./update.run.js')),
    send,
    cancel,
    validate,
    events,
    files,
    data,
  ]);
  registerTags(bundle, action);
  registerVerbs(bundle, action, [remind, wait, inspect]);
}
