// esign bundle: create, send, track and cancel signature Bundles.
import type { Command } from '@commander-js/extra-typings';
import type { Action } from '../../run.js';
import * as cancel from './cancel.js';
import * as create from './create.js';
import * as data from './data.js';
import * as events from './events.js';
import * as files from './files.js';
import * as get from './get.js';
import * as inspect from './inspect.js';
import * as list from './list.js';
import * as prepare from './prepare.js';
import * as remind from './remind.js';
import * as send from './send.js';
import * as tags from './tags.js';
import * as update from './update.js';
import * as validate from './validate.js';
import * as wait from './wait.js';

export function register(program: Command, action: Action): void {
  const bundle = program.command('bundle').description('Create, send, track and cancel signature Bundles');
  for (const verb of [
    create,
    prepare,
    list,
    get,
    update,
    send,
    cancel,
    validate,
    events,
    files,
    data,
    tags,
    remind,
    wait,
    inspect,
  ])
    verb.register(bundle, action);
}
